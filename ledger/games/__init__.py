"""Pure game rules: cards in, decisions and amounts out. No I/O of any kind."""
