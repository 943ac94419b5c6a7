"""Q Poker (DICJ 89/2004): three-card hands, a bonus bet and a play bet against the dealer.

Article numbers are those of the regulation annexed to the order (`q-poker-2004_*`, Chinese).
The round is a frozen value: each table action has a `verify_*` check that raises a typed
error with a sentence, and a method that returns the round with the action applied.

The package is everything that is the game: its rules (`rules` gathers them), its round procedure
(`procedure`), its shoe, its hands as named, its floor results, its simulated play, and
`game.GAME`, what the rest of the ledger asks of it (`ledger.games.protocol.Game`).
"""
