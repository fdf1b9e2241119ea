//! `enum` declarations: their values and display texts.

use super::*;

pub(super) fn lower_enums(cx: &mut Ctx, items: &[&Item]) {
    for item in items {
        if let ItemKind::Enum { name, values } = &item.kind {
            let id = cx.enums.len() as u16;
            cx.enum_ids.insert(name.name.clone(), id);
            let mut vals = Vec::new();
            for (i, (v, short)) in values.iter().enumerate() {
                if let Some(&(other, _)) = cx.enum_values.get(&v.name) {
                    let d = Diagnostic::error(
                        "muster::duplicate",
                        v.span,
                        format!(
                            "`{}` is already a value of enum `{}`",
                            v.name,
                            cx.enums
                                .get(other as usize)
                                .map(|e| e.name.as_str())
                                .unwrap_or(&name.name)
                        ),
                    )
                    .label("declared again")
                    .help("enum values share one namespace: give this one another name");
                    cx.error(d);
                    continue;
                }
                cx.enum_values.insert(v.name.clone(), (id, i as u16));
                vals.push((
                    v.name.clone(),
                    short.clone().unwrap_or_else(|| v.name.clone()),
                ));
            }
            cx.enums.push(ir::EnumDef {
                name: name.name.clone(),
                values: vals,
            });
        }
    }
}
