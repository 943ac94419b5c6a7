"""Baccarat (DICJ 55/2004): the tableau, the shoe start, house settings, settlement, errors.

Pure: cards in, decisions and amounts out. Articles are those of the regulation annexed to
Despacho Regulamentar Externo n.º 55/2004 ("art. 9(3)(2)" is article 9, item 3), sub-item (2)).

The package is everything that is the game: its rules (`rules` gathers them), its round procedure
(`procedure`), its shoe, its hands as named, its floor results, its simulated play, and
`game.GAME`, what the rest of the ledger asks of it (`ledger.games.protocol.Game`).
"""
