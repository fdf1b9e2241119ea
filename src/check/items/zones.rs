//! `zone` declarations: per seat or shared, numbered, their visibility and what they hold.

use super::*;

pub(super) fn lower_zones(cx: &mut Ctx, items: &[&Item]) -> Vec<ir::ZoneDef> {
    // Deck templates become real components when a zone holds them; the templates
    // themselves are dropped afterwards.
    let templates = std::mem::take(&mut cx.components);
    let mut zones = Vec::new();
    for item in items {
        let ItemKind::Zone(z) = &item.kind else {
            continue;
        };
        let instances = if z.per_seat { cx.seats.len() } else { 1 };
        let mut initial = vec![Vec::new(); instances];
        for list in initial.iter_mut() {
            for (copies, deck) in &z.holds {
                let Some(cards) = cx.decks.get(&deck.name).cloned() else {
                    // A per-seat zone meets the same unknown deck once per seat: say it once.
                    if !cx.diags.iter().any(|e| e.span == deck.span) {
                        let known: Vec<String> = cx.decks.keys().cloned().collect();
                        cx.unknown("deck", deck, "no such deck", known);
                    }
                    continue;
                };
                for _ in 0..*copies {
                    if cards.is_empty() || !cx.room_for_components(cards.len(), deck.span) {
                        break;
                    }
                    for c in &cards {
                        list.push(cx.components.len() as u16);
                        cx.components.push(templates[*c as usize].clone());
                    }
                }
            }
        }
        let id = zones.len() as u16;
        if z.slots == 0 || z.slots > MAX_SLOTS {
            cx.error(
                Diagnostic::error(
                    "muster::limit",
                    z.name.span,
                    format!("zone `{}` asks for {} numbered zones", z.name.name, z.slots),
                )
                .label("here")
                .help(format!(
                    "a zone name may stand for 1 to {MAX_SLOTS} numbered zones"
                )),
            );
        }
        let slots = z.slots.clamp(1, MAX_SLOTS) as u16;
        cx.zones
            .insert(z.name.name.clone(), (id, z.per_seat, slots));
        let visibility = match z.visibility {
            ast::Visibility::Public => ir::Visibility::Public,
            ast::Visibility::Owner => ir::Visibility::Owner,
            ast::Visibility::Hidden => ir::Visibility::Hidden,
            ast::Visibility::Top => ir::Visibility::Top,
        };
        zones.push(ir::ZoneDef {
            name: z.name.name.clone(),
            per_seat: z.per_seat,
            visibility,
            slots,
            initial,
        });
    }
    zones
}
