"""Text helpers every package shares: display cleaning, folding, match keys, CJK detection (pure, no kg imports)."""
