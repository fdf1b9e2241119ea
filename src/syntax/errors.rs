//! pest's errors, rewritten in the words a designer uses.

use super::ast::Span;
use super::parser::Rule;
use crate::diagnostic::Diagnostic;
use pest::error::{Error, ErrorVariant, InputLocation};

/// What a grammar rule is, in plain words.
fn words(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "the end of the file",
        Rule::item | Rule::import | Rule::game | Rule::seat | Rule::enum_decl | Rule::kind | Rule::deck
        | Rule::board | Rule::zone | Rule::var_decl | Rule::def | Rule::setup | Rule::phase | Rule::action
        | Rule::end_block | Rule::label_decl | Rule::notation_decl | Rule::variant | Rule::shapes_decl => {
            "a declaration (`game`, `seat`, `board`, `zone`, `var`, `def`, `setup`, `phase`, `action`, `end`, ...)"
        }
        Rule::players | Rule::max_turns | Rule::first_phase => "a game property (`players`, `max_turns`, `first_phase`)",
        Rule::face => "`face up` or `face down`",
        Rule::field | Rule::field_list => "a field such as `name: value`",
        Rule::enum_value => "an enum value",
        Rule::attr | Rule::kind_label => "an attribute such as `rank: 1..13`, or a `label`",
        Rule::attr_type | Rule::int_range => "an attribute type (a range such as `1..13`, or an enum name)",
        Rule::names => "`named [...]`",
        Rule::deck_body | Rule::deck_for | Rule::deck_card => "`card { ... }` or `for x in ... { ... }`",
        Rule::region => "`region name = cells`",
        Rule::path => "`path name = cells`",
        Rule::path_loop => "`loop`",
        Rule::area | Rule::link_rule => "`area name ...` or `link a, b when ...`",
        Rule::area_shaped => "`shaped family`",
        Rule::shape_rule | Rule::rule_rows | Rule::rule_row_cells | Rule::rule_connected
        | Rule::rule_row_links | Rule::rule_triangles | Rule::shape => {
            "a shape rule (`rows at most N`, `cells per row at most N`, `connected`, `rows linked`, `diagonals in triangles`) or `shape name { ... }`"
        }
        Rule::art_mark => "a shape's drawing: `o` for a cell, `-`, `|`, `/` or `\\` for a link",
        Rule::kw_form => "`form`",
        Rule::kw_as => "`as`",
        Rule::form_stmt => "an effect (`move`, `swap`, `shift`, `if`, `for`, `win`, an assignment, ...)",
        Rule::zone_scope => "`shared` or `per seat`",
        Rule::visibility => "a visibility (`public`, `owner`, `hidden` or `top`)",
        Rule::holds => "`holds deck`",
        Rule::zone_slots => "`x N` (how many numbered zones)",
        Rule::trigger | Rule::reaction | Rule::effect_decl => "a declaration (`game`, `seat`, `board`, `zone`, `var`, `def`, `setup`, `phase`, `action`, `end`, ...)",
        Rule::trigger_kind => "`enters` or `leaves`",
        Rule::react_stmt | Rule::call_stmt => "an effect (`move`, `swap`, `shift`, `if`, `for`, `win`, an assignment, ...)",
        Rule::per_seat => "`per seat`",
        Rule::var_type => "a type such as `: seat`",
        Rule::transfer_stmt | Rule::deal_stmt => "an effect (`move`, `swap`, `shift`, `if`, `for`, `win`, an assignment, ...)",
        Rule::kw_transfer => "`transfer`",
        Rule::kw_deal => "`deal`",
        Rule::kw_from => "`from`",
        Rule::phase_item | Rule::order | Rule::start | Rule::turn | Rule::before_turn | Rule::after_turn
        | Rule::until | Rule::next | Rule::enter | Rule::reversed => "a phase part (`order`, `start`, `enter`, `turn`, `before turn`, `after turn`, `until`, `next`)",
        Rule::next_if => "`if CONDITION then PHASE else PHASE`",
        Rule::tuck_stmt => "an effect (`move`, `swap`, `shift`, `if`, `for`, `win`, an assignment, ...)",
        Rule::step | Rule::by => "a turn step such as `one of place, pass`",
        Rule::step_mode => "`one`, `optional`, `repeat`, `loop` or `all`",
        Rule::step_if => "`if condition`",
        Rule::clause | Rule::choose | Rule::let_clause | Rule::require | Rule::do_clause => {
            "an action clause (`choose`, `let`, `require`, `do`)"
        }
        Rule::end_rule | Rule::win_when | Rule::draw_when | Rule::on_stuck | Rule::score_rule => {
            "an end rule (`win ... when ...`, `draw when ...`, `on stuck ...`, `score p: ...`)"
        }
        Rule::stuck_result => "`draw`, `pass` or `lose`",
        Rule::stuck_if => "`if CONDITION then RESULT else RESULT`",
        Rule::block => "a block `{ ... }`",
        Rule::stmt | Rule::if_stmt | Rule::for_stmt | Rule::move_stmt | Rule::swap_stmt | Rule::shift_stmt
        | Rule::shuffle_stmt | Rule::place_stmt | Rule::reveal_stmt | Rule::conceal_stmt | Rule::win_stmt | Rule::lose_stmt | Rule::draw_stmt
        | Rule::assign => "an effect (`move`, `swap`, `shift`, `if`, `for`, `win`, an assignment, ...)",
        Rule::place_ref => "a variable to assign",
        Rule::assign_op => "`=`, `+=` or `-=`",
        Rule::expr | Rule::primary | Rule::if_expr | Rule::quantifier | Rule::aggregate | Rule::comprehension
        | Rule::list | Rule::call | Rule::boolean | Rule::none_lit | Rule::prefix | Rule::not | Rule::neg => {
            "an expression"
        }
        Rule::infix | Rule::or | Rule::and | Rule::eq | Rule::ne | Rule::le | Rule::ge | Rule::lt | Rule::gt
        | Rule::not_in | Rule::in_op | Rule::range | Rule::add | Rule::sub | Rule::mul | Rule::div | Rule::rem => {
            "an operator"
        }
        Rule::postfix | Rule::field_access => "`.field`",
        Rule::index_access => "`[`",
        Rule::quant_kind => "`any`, `all` or `none`",
        Rule::agg_kind => "`sum`, `max`, `min` or `count`",
        Rule::name | Rule::word => "a name",
        Rule::kw_by => "`by`",
        Rule::kw_choose => "`choose`",
        Rule::kw_do => "`do`",
        Rule::kw_draw => "`draw`",
        Rule::kw_else => "`else`",
        Rule::kw_for => "`for`",
        Rule::kw_if => "`if`",
        Rule::kw_in => "`in`",
        Rule::kw_let => "`let`",
        Rule::kw_lose => "`lose`",
        Rule::kw_move => "`move`",
        Rule::kw_onto => "`onto`",
        Rule::kw_place => "`place`",
        Rule::kw_require => "`require`",
        Rule::kw_shift => "`shift`",
        Rule::kw_shuffle => "`shuffle`",
        Rule::kw_skip => "`skip`",
        Rule::kw_swap => "`swap`",
        Rule::kw_then => "`then`",
        Rule::kw_to => "`to`",
        Rule::kw_toward => "`toward`",
        Rule::kw_when => "`when`",
        Rule::kw_where => "`where`",
        Rule::kw_win => "`win`",
        Rule::int => "a number",
        Rule::string | Rule::string_inner => "a quoted string",
        _ => return None,
    })
}

pub(super) fn describe_parse_error(file: u16, text: &str, e: Error<Rule>) -> Diagnostic {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    // pest stops by itself before its recursion exhausts the stack.
    if let ErrorVariant::CustomError { message } = &e.variant {
        if message.contains("limit reached") {
            let end = text[pos.min(text.len())..]
                .chars()
                .next()
                .map_or(pos, |c| pos + c.len_utf8());
            return Diagnostic::error(
                "muster::too-deep",
                Span::new(file, pos, end),
                "the rules nest too deeply here",
            )
            .label("too deep")
            .help(format!(
                "a rules file may nest effects and expressions at most {} levels deep; \
                 name a part with `def` or `effect`",
                super::depth::MAX_DEPTH
            ));
        }
    }
    let mut expected: Vec<String> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives
            .iter()
            .filter_map(|r| words(*r))
            .map(str::to_string)
            .collect(),
        ErrorVariant::CustomError { .. } => vec![],
    };
    // Punctuation (`)`, `}`, `=`) is not a rule; pest reports it separately.
    if let Some(attempts) = e.parse_attempts() {
        for t in attempts.expected_tokens() {
            let token = t.to_string();
            let noise = token.trim().is_empty()
                || token.contains("..")
                || token.chars().any(char::is_alphanumeric)
                || token == "//"
                || token == "/*";
            if noise {
                continue;
            }
            // Brackets and separators are worth naming; operators are one idea.
            if ["(", ")", "[", "]", "{", "}", ",", ":", "="].contains(&token.as_str()) {
                expected.push(format!("`{token}`"));
            } else {
                expected.push("an operator".to_string());
            }
        }
    }
    expected.sort();
    expected.dedup();
    // The token at the error, for the message.
    let rest = &text[pos.min(text.len())..];
    let token: String = if rest.is_empty() {
        String::new()
    } else {
        let first = rest.chars().next().unwrap();
        if first.is_alphanumeric() || first == '_' {
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        } else {
            first.to_string()
        }
    };
    let end = (pos + token.len()).min(text.len());
    let span = match text[..pos.min(text.len())].chars().next_back() {
        // At the very end, point at the last character (often the final newline): there is
        // no line after it to show.
        Some(last) if token.is_empty() => Span::new(file, pos - last.len_utf8(), pos),
        _ => Span::new(file, pos, end.max(pos)),
    };
    let found = if token.is_empty() {
        "the file ends here".to_string()
    } else {
        format!("found `{}`", shown(&token))
    };
    let mut message = if token.is_empty() {
        "the rules file ends too early".to_string()
    } else {
        format!("unexpected `{}`", shown(&token))
    };
    let hint = hint(&token, &rest[token.len()..], &expected);
    if let Some((Some(m), _)) = &hint {
        message = m.to_string();
    }
    let mut d = Diagnostic::error("muster::syntax", span, message).label(found);
    if let Some((_, help)) = hint {
        return d.help(help);
    }
    d = match expected.len() {
        0 => d.help("check the spelling and the brackets around here"),
        1 => d.help(format!("expected {}", expected[0])),
        n if n > 8 => d.help(format!(
            "expected {} or one of {} other things",
            expected[..6].join(", "),
            n - 6
        )),
        _ => {
            let (last, rest) = expected.split_last().unwrap();
            d.help(format!("expected {} or {}", rest.join(", "), last))
        }
    };
    d
}

/// A token as shown in a message: control characters escaped, everything else as typed.
fn shown(token: &str) -> String {
    token
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The words a rules file cannot use as names (the grammar's `keyword` rule).
const RESERVED: [&str; 32] = [
    "in", "where", "and", "or", "not", "if", "then", "else", "true", "false", "none", "any", "all",
    "to", "toward", "by", "onto", "when", "for", "let", "choose", "require", "do", "move", "swap",
    "shift", "shuffle", "place", "win", "lose", "draw", "skip",
];

/// For mistakes common enough to recognise: a better message (if any) and a help line
/// that says how to fix it. `after` is the text after the token.
fn hint(token: &str, after: &str, expected: &[String]) -> Option<(Option<&'static str>, String)> {
    let expects = |what: &str| expected.iter().any(|e| e == what);
    if token == "\"" && !after.split('\n').next().unwrap_or("").contains('"') {
        return Some((
            Some("this string is never closed"),
            "a string ends with `\"` on the line where it starts".into(),
        ));
    }
    if RESERVED.contains(&token) && expects("a name") {
        return Some((
            None,
            format!("`{token}` is a keyword of the language, so it cannot be a name; choose another name"),
        ));
    }
    if token == "=" && !after.starts_with('=') && expects("an operator") {
        return Some((
            None,
            "to compare two values write `==`; a single `=` gives a value, in `var`, `def` and assignments".into(),
        ));
    }
    if ["one", "optional", "repeat", "loop", "all"].contains(&token) && expects("`by`") {
        return Some((
            None,
            format!("a turn step is written `{token} of ACTION, ACTION, ...`"),
        ));
    }
    if expected.iter().any(|e| e.starts_with("a turn step"))
        && after.trim_start().starts_with("of ")
    {
        return Some((
            None,
            format!("`{token}` is not a step mode: a step is `one`, `optional`, `repeat`, `loop` or `all` followed by `of ACTION, ACTION, ...`"),
        ));
    }
    if token == ";" {
        return Some((
            None,
            "rules need no `;`: start the next clause or effect on a new line".into(),
        ));
    }
    None
}
