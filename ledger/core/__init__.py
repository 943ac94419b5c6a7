"""The vocabulary every layer shares: cards as values, money and Macau time, the error tree."""
