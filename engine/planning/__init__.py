"""What to change: limits, suggestions, the make-it-fit solver, model families, layouts by speed."""
