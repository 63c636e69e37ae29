"""Terminal output: colour only on a terminal, every stored text made safe to print."""
