//! Battalion, the emperor game: what its rulings' scenarios cannot say. The rulings
//! themselves (muster, attacks, the die, moves, reformation, bodyguards and emperors) are
//! scenarios in `games/scenarios/battalion_emperor/*.scenarios`, run by `tests/scenarios.rs`.

mod common;

use common::emperor::*;

#[test]
fn every_shipped_formation_is_in_the_catalogues() {
    let e = em_engine();
    let fam = |name: &str| {
        let f = e.game.families.iter().find(|f| f.name == name).unwrap();
        f.shapes
            .iter()
            .map(|&s| e.game.shapes[s as usize].index.clone())
            .collect::<Vec<_>>()
    };
    let formations = fam("formations");
    assert!(formations.len() >= 6, "{formations:?}");
    assert!(formations.contains(&"4-4-4".to_string()));
    // Every reformation shape has at most two rows, and every size from 1 to 8 exists.
    let regroup = fam("regroupings");
    for size in 1..=8 {
        assert!(
            regroup
                .iter()
                .any(|i| i.split('-').map(|n| n.parse::<u32>().unwrap()).sum::<u32>() == size),
            "no reformation shape of {size} cells"
        );
    }
    assert!(regroup.iter().all(|i| i.split('-').count() <= 2));
}
