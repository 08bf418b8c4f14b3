"""Output formats (ruff's names): concise, full, json, github, sarif."""
from . import github, json_format, sarif, text

FORMATS = {
    "concise": text.concise,
    "full": text.full,
    "json": json_format.render,
    "github": github.render,
    "sarif": sarif.render,
}


def render(output_format: str, findings: list, base: str, unsafe: bool = False) -> str:
    """``findings`` are sorted; ``base`` is the directory SARIF URIs are relative to;
    ``unsafe``: unsafe fixes count as applicable ([*] in the text formats)."""
    if output_format in ("concise", "full"):
        return FORMATS[output_format](findings, base, unsafe)
    return FORMATS[output_format](findings, base)
