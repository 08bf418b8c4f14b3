"""leaklint's rules, one module each (installed as ``leaklint.rules``)."""
