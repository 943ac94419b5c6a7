"""Fortune 8 (DICJ 71/2009): one card per space decides its three boxes, L, 8 and H.

Article numbers are those of the annexed regulation (`fortune-8-2009_*`). The round is a frozen
value: each table action has a `verify_*` check that raises a typed error with a sentence, and
a method that returns the round with the action applied.

The package is everything that is the game: its rules (`rules` gathers them), its round procedure
(`procedure`), its shoe, its hands as named, its floor results, its simulated play, and
`game.GAME`, what the rest of the ledger asks of it (`ledger.games.protocol.Game`).
"""
