"""The bead plate and the big road, as a baccarat table's scoreboard draws them."""

import pytest

from ledger.games.baccarat.roads import bead_plate, big_road


def _cells(road):
    return {place: (cell.winner[0].upper(), cell.ties) for place, cell in road.cells.items()}


def test_the_bead_plate_fills_down_columns_of_six_ties_included():
    road = bead_plate(["banker", "player", "tie", "banker", "banker", "player", "player"])
    assert _cells(road) == {(0, 0): ("B", 0), (0, 1): ("P", 0), (0, 2): ("T", 0),
                            (0, 3): ("B", 0), (0, 4): ("B", 0), (0, 5): ("P", 0),
                            (1, 0): ("P", 0)}
    assert road.columns == 2


def test_the_big_road_starts_a_column_for_each_streak_and_marks_ties_on_the_coup_before():
    road = big_road(["banker", "banker", "tie", "player", "banker", "tie", "tie"])
    assert _cells(road) == {(0, 0): ("B", 0), (0, 1): ("B", 1), (1, 0): ("P", 0),
                            (2, 0): ("B", 2)}


def test_a_tie_before_any_win_is_marked_on_the_first_cell():
    assert _cells(big_road(["tie", "tie", "player"])) == {(0, 0): ("P", 2)}


def test_a_streak_longer_than_six_turns_right_along_the_bottom_and_the_next_streak_starts_past_it():
    road = big_road(["banker"] * 8 + ["player"])
    assert _cells(road) == {**{(0, row): ("B", 0) for row in range(6)},
                            (1, 5): ("B", 0), (2, 5): ("B", 0), (1, 0): ("P", 0)}


def test_an_unknown_winner_is_refused():
    with pytest.raises(ValueError, match="'dragon' is not a baccarat winner"):
        big_road(["dragon"])
