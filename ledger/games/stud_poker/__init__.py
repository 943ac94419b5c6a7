"""Stud Poker (DICJ 61/2004, which replaced 69/2003): hand values, settlement, the deal.

Articles are numbered as in the 2004 text; the 2003 text numbers arts. 1-12 the same way and
has no art. 13. The two versions differ in one thing only, the royal flush's odds on the
additional bet (art. 9, 5), (9)): fixed at 50:1 in 2003, 50 to 100:1 set by the house with
DICJ authorisation (art. 13) in 2004. That is data in `StudPokerSettings`, not a second module.

Points the regulation leaves open, settled here (README rules section):
- Equal box and dealer hands cannot occur in one deck under art. 8's tie-breaks; were a
  recorded round to show one, both bets are returned (a push) rather than guessed.
- The cap of art. 9, 5), (7)-(9) limits the additional bet's winnings on that box; the ante's
  1:1 is not capped and lower categories are never capped.
- The jackpot bet is always collected by the table settlement (outcome LOST, spot `jackpot`):
  it buys a chance at the pool. Prizes come from `ledger.games.jackpot` as separate records,
  so accounting keeps jackpot stakes and prizes apart from table win.
- A void round returns antes and additional bets; its jackpot bets are CARRIED, recorded with
  `returned == stake` so this round's books balance and the next round books the same stake.
- With the shuffler, the dealer's "top card" (art. 7, 2)) is the first card of the dealer's five.

The package is everything that is the game: its rules (`rules` gathers them), its round procedure
(`procedure`), its shoe, its hands as named, its floor results, its simulated play, and
`game.GAME`, what the rest of the ledger asks of it (`ledger.games.protocol.Game`).
"""
