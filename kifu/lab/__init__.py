"""Work over many games: playing bot games into records, generating puzzles, and (next)
matches, simulations of rule changes and analysis of played games.

This layer sits above the notation (it writes records and puzzles) and below the archive,
the HTML pages and the CLI, which call it. Heavy loops go through the executor seam
(:mod:`kifu.core.executor`).
"""
