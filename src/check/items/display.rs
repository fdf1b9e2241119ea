//! The `display` block: which variables players are shown, and under what labels.

use super::*;

/// `display { ... }`: the variables players are shown, each once, with its label.
pub(super) fn lower_display(
    cx: &mut Ctx,
    items: &[&Item],
    vars: &[ir::VarDef],
) -> Option<Vec<ir::Shown>> {
    let mut out: Option<Vec<ir::Shown>> = None;
    for item in items {
        let ItemKind::Display(entries) = &item.kind else {
            continue;
        };
        let shown = out.get_or_insert_with(Vec::new);
        for (name, label) in entries {
            let Some(id) = vars.iter().position(|v| v.name == name.name) else {
                let known: Vec<String> = vars.iter().map(|v| v.name.clone()).collect();
                cx.unknown("variable", name, "not a variable", known);
                continue;
            };
            if shown.iter().any(|s| s.var as usize == id) {
                let d = Diagnostic::error(
                    "muster::display",
                    name.span,
                    format!("`{}` is displayed twice", name.name),
                )
                .label("already listed");
                cx.error(d);
                continue;
            }
            shown.push(ir::Shown {
                var: id as u16,
                label: label.clone().unwrap_or_else(|| name.name.replace('_', " ")),
            });
        }
    }
    out
}
