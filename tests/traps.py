"""Texts on which DuckDB and Spark SQL disagree unless the Spark stages take care (issue #10)."""

from __future__ import annotations

import random

BASE = "the quick brown fox jumps over the lazy dog near the river bank while it rains"


def traps_corpus() -> dict[str, str]:
    rng = random.Random(10)
    docs = {
        # lower(): U+0130, final sigma, Turkish I, astral (Deseret) and post-Unicode-13 letters
        "dotted-i": "İSTANBUL İzmir DİYARBAKIR " + BASE,
        "dotted-i-copy": "i̇stanbul izmir diyarbakir " + BASE,
        "sigma": "ΟΔΥΣΣΕΥΣ ΣΟΦΟΣ Σ " + BASE,
        "sigma-lower": "οδυσσευσ σοφοσ σ " + BASE,
        "deseret": "𐐀𐐁𐐂 𐐃𐐄 " + BASE,
        "new-letters": "\U0001e030\U0001e031 \u2c2f\u2c5f \ua7c0\ua7d0 \U00010570\U00010595 " + BASE,
        "new-letters-word": "word\u0870\u0871 x\U0001e4d0y \U00031350\U00031351 " + BASE,
        # whitespace: NBSP, U+0085, U+2028/9, CR, tabs, ideographic space; control characters
        "spaces": "the\u00a0quick\u0085brown\u2028fox\u2029jumps\rover\tthe\u3000lazy dog near the river bank",
        "controls": "\x01the quick\x1c brown fox\x7f jumps \x00over the lazy dog\x01",
        "crlf": "line one\r\nline two\r\n\r\nline three " + BASE,
        # astral characters and combining marks
        "emoji": "😀😃😄 🎉 the quick 👍🏽 brown fox 👨‍👩‍👧 jumps over the lazy dog 😀😃😄",
        "emoji-copy": "😀😃😄 🎉 the quick 👍🏽 brown fox 👨‍👩‍👧 jumps over the lazy dog 😀😃",
        "combining": "café cafe\u0301 naïve nai\u0308ve e\u0301\u0301\u0301 " + BASE,
        # empty, whitespace-only, short, no words
        "empty": "",
        "blank": " \t\u00a0\u2028 ",
        "short": "ab",
        "short-copy": "AB",
        "one-char": "x",
        "punctuation": "!!! ??? ... --- ;;;",
        "digits": "١٢٣ ४५६ 123 ½ Ⅻ",
    }
    # 257-260 code points around the DuckDB piece boundary (256), ASCII and astral
    for n in range(255, 262):
        docs[f"len-{n}"] = "".join(rng.choice("abcdefgh ") for _ in range(n))
        docs[f"astral-{n}"] = "".join(rng.choice("ab😀𝒳 ") for _ in range(n))
    docs["len-259-copy"] = docs["len-259"][:-1] + "z"
    # word shingles across the 64-token piece boundary
    words = [rng.choice(["alpha", "beta", "gamma", "δέλτα", "ε", "𝒳y", "z_1"]) for _ in range(140)]
    docs["tokens-140"] = " ".join(words)
    docs["tokens-140-edit"] = " ".join(words[:70] + ["changed"] + words[71:])
    # a hot bucket: identical texts
    for i in range(12):
        docs[f"hot-{i:02d}"] = "identical boilerplate text repeated many times"
    return docs
