"""The shift report and what is built on it: the gaming day and the month, the statistics'
figures, and how a round's stakes lie together for the band."""
