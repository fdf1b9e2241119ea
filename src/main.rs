fn main() {
    std::process::exit(muster::cli::main())
}
