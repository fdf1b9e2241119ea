//! "Did you mean ...?" for misspelt names: used by the checker and by move entry.

/// The known name closest to `name`, if it is close enough to be a likely typo.
pub fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .filter(|k| *k != name)
        .map(|k| (strsim::jaro_winkler(name, k), k))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// A help line suggesting the closest name, or listing the choices when there are few.
pub fn suggest<'a>(name: &str, known: impl IntoIterator<Item = &'a str> + Clone) -> Option<String> {
    if let Some(best) = closest(name, known.clone()) {
        return Some(format!("did you mean `{best}`?"));
    }
    let all: Vec<&str> = known.into_iter().collect();
    if !all.is_empty() && all.len() <= 8 {
        return Some(format!(
            "known names here: {}",
            all.iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    None
}
