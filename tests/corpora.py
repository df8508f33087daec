"""Generated corpora with planted near-duplicates at a spread of similarities."""

from __future__ import annotations

import random


def planted_corpus(n_base: int, variants: int, seed: int, words: int = 80) -> dict[str, str]:
    """n_base random documents, each with `variants` edited copies (0-25% of words changed)."""
    rng = random.Random(seed)
    vocabulary = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 8))) for _ in range(3000)
    ]
    docs: dict[str, str] = {}
    for i in range(n_base):
        base = [rng.choice(vocabulary) for _ in range(words)]
        docs[f"d{i:04d}"] = " ".join(base)
        for v in range(variants):
            copy = list(base)
            edits = int(len(copy) * rng.uniform(0.0, 0.25))
            for _ in range(edits):
                copy[rng.randrange(len(copy))] = rng.choice(vocabulary)
            docs[f"d{i:04d}v{v}"] = " ".join(copy)
    return docs


def write_folder(folder, docs: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in docs.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
