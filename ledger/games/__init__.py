"""The games: one package each (`baccarat`, `fortune8`, `q_poker`, `stud_poker`) behind the
`Game` protocol (`protocol.py`), found by code in `registry.py`; and what they share: cards'
settlement helpers (`common.py`), house settings and rule sets, the jackpot, a round's recorded
facts (`facts.py`) and their replayer, the shoe policy. The rules are pure: cards in,
decisions and amounts out, no I/O of any kind."""
