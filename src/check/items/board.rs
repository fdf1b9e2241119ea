//! The `board`: its cells, directions and links.

use super::*;

pub(super) fn lower_board(cx: &mut Ctx, items: &[&Item]) {
    // A variant's grid comes after the base's: the last gives the size.
    let Some(b) = items.iter().rev().find_map(|i| grid_of(i)) else {
        return;
    };
    if b.width == 0 || b.height == 0 || b.width > MAX_BOARD_SIDE || b.height > MAX_BOARD_SIDE * 2 {
        cx.error(
            Diagnostic::error(
                "muster::board",
                b.size_span,
                format!(
                    "a {} x {} {} is outside what Muster supports",
                    b.width,
                    b.height,
                    if b.hex { "hex board" } else { "grid" }
                ),
            )
            .label("board size")
            .help(format!(
                "a grid has 1 to {MAX_BOARD_SIDE} files and 1 to {} ranks",
                MAX_BOARD_SIDE * 2
            )),
        );
    }
    // A board out of bounds is checked at the largest size allowed, so that the cells
    // the file names are not reported again as unknown names.
    let bad =
        b.width == 0 || b.height == 0 || b.width > MAX_BOARD_SIDE || b.height > MAX_BOARD_SIDE * 2;
    let (w, h) = if bad {
        (MAX_BOARD_SIDE as u16, MAX_BOARD_SIDE as u16 * 2)
    } else {
        (b.width as u16, b.height as u16)
    };
    let mut board = ir::Board {
        width: w,
        height: h,
        hex: b.hex,
        ..Default::default()
    };
    let dirs: &[(&str, i8, i8)] = if b.hex { &HEX_DIRS } else { &GRID_DIRS };
    board.dirs = dirs
        .iter()
        .map(|(n, dx, dy)| ir::DirDef {
            name: n.to_string(),
            dx: *dx,
            dy: *dy,
        })
        .collect();
    for y in 0..h {
        for x in 0..w {
            let name = format!("{}{}", (b'a' + x as u8) as char, y + 1);
            cx.cell_ids.insert(name.clone(), board.cells.len() as u16);
            board.cells.push(ir::CellDef { name, x, y });
        }
    }
    for c in 0..board.cells.len() {
        let (x, y) = (board.cells[c].x as i32, board.cells[c].y as i32);
        for &(_, dx, dy) in dirs {
            let (nx, ny) = (x + dx as i32, y + dy as i32);
            board
                .links
                .push(if nx >= 0 && ny >= 0 && nx < w as i32 && ny < h as i32 {
                    (ny as u16) * w + nx as u16
                } else {
                    ir::NO_CELL
                });
        }
    }
    cx.board = board;
}
