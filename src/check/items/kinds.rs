//! `kind` declarations: attributes, labels and notations of cards and pieces.

use super::*;

pub(super) fn parse_label(
    cx: &mut Ctx,
    template: &str,
    span: Span,
    kind_attrs: &[u16],
) -> Vec<ir::LabelPart> {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(ir::LabelPart::Text(rest[..open].to_string()));
        }
        let Some(close) = rest[open..].find('}') else {
            cx.error(
                Diagnostic::error(
                    "muster::label",
                    span,
                    "a label has a `{` with no matching `}`",
                )
                .label("unclosed `{`"),
            );
            return parts;
        };
        let name = &rest[open + 1..open + close];
        if name == "owner" {
            parts.push(ir::LabelPart::Owner);
        } else if let Some(&a) = cx.attr_ids.get(name).filter(|a| kind_attrs.contains(a)) {
            parts.push(ir::LabelPart::Attr(a));
        } else {
            let known: Vec<String> = kind_attrs
                .iter()
                .map(|a| cx.attrs[*a as usize].name.clone())
                .chain(["owner".to_string()])
                .collect();
            let mut d = Diagnostic::error(
                "muster::label",
                span,
                format!("the label names `{{{name}}}`, which is not an attribute of this kind"),
            )
            .label("in this label");
            if let Some(h) = suggest(name, known.iter().map(|s| s.as_str())) {
                d = d.help(h);
            }
            cx.error(d);
        }
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        parts.push(ir::LabelPart::Text(rest.to_string()));
    }
    parts
}

pub(super) fn lower_kinds(cx: &mut Ctx, items: &[&Item]) {
    for item in items {
        let ItemKind::Kind(k) = &item.kind else {
            continue;
        };
        let mut own = Vec::new();
        for a in &k.attrs {
            let ty = match &a.ty {
                ast::AttrType::Range(lo, hi, sp) => {
                    if hi < lo {
                        cx.error(
                            Diagnostic::error(
                                "muster::range",
                                *sp,
                                format!("the range {lo}..{hi} is empty"),
                            )
                            .label("empty range")
                            .help("write the low end first"),
                        );
                    }
                    ir::AttrType::Int { lo: *lo, hi: *hi }
                }
                ast::AttrType::Named(n) => {
                    if n.name == "pattern" {
                        ir::AttrType::Pattern
                    } else {
                        match cx.enum_ids.get(&n.name) {
                            Some(&e) => ir::AttrType::Enum(e),
                            None => {
                                let mut d = Diagnostic::error(
                                    "muster::unknown-name",
                                    n.span,
                                    format!("unknown type `{}`", n.name),
                                )
                                .label("not an enum");
                                let known: Vec<String> = cx.enum_ids.keys().cloned().collect();
                                d = d.help(suggest(&n.name, known.iter().map(|s| s.as_str())).unwrap_or_else(|| "an attribute is a range such as `1..13` or the name of an enum".into()));
                                cx.error(d);
                                ir::AttrType::Int { lo: 0, hi: 0 }
                            }
                        }
                    }
                }
            };
            let id = match cx.attr_ids.get(&a.name.name) {
                Some(&id) => {
                    if cx.attrs[id as usize].ty != ty {
                        cx.error(Diagnostic::error("muster::type", a.name.span, format!("attribute `{}` has another type in another kind", a.name.name)).label("type differs").help("attributes with the same name must have the same type in every kind"));
                    }
                    id
                }
                None => {
                    let id = cx.attrs.len() as u16;
                    cx.attr_ids.insert(a.name.name.clone(), id);
                    cx.attrs.push(ir::AttrDef {
                        name: a.name.name.clone(),
                        ty,
                        names: a.names.clone(),
                    });
                    id
                }
            };
            own.push(id);
        }
        let label = match &k.label {
            Some((t, sp)) => parse_label(cx, t, *sp, &own),
            None => vec![ir::LabelPart::Text(k.name.name.clone())],
        };
        cx.kind_ids
            .insert(k.name.name.clone(), cx.kinds.len() as u16);
        cx.kinds.push(ir::KindDef {
            name: k.name.name.clone(),
            attrs: own,
            label,
            notation: None,
        });
    }
    for item in items {
        let (kind, template, is_label) = match &item.kind {
            ItemKind::Label { kind, template } => (kind, template, true),
            ItemKind::Notation { kind, template } => (kind, template, false),
            _ => continue,
        };
        match cx.kind_ids.get(&kind.name) {
            Some(&k) => {
                let own = cx.kinds[k as usize].attrs.clone();
                let parts = parse_label(cx, template, item.span, &own);
                if is_label {
                    cx.kinds[k as usize].label = parts;
                } else {
                    cx.kinds[k as usize].notation = Some(parts);
                }
            }
            None => {
                let known: Vec<String> = cx.kind_ids.keys().cloned().collect();
                cx.unknown("kind", kind, "no such kind", known);
            }
        }
    }
}
