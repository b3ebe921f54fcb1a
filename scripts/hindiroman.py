"""Devanagari Hindi written in Latin letters, as scripts/udlanguages needs
it: a word romanized by the Hunterian scheme without diacritics (the long
vowels ā ī ū written as a i u, ISO 15919's c and ch as Hunterian's ch and
chh), the forms a verb orders and asks with (imperatives), and the
spellings chat gives a word (variants).

The rules, each one chat writes (Hinglish's spellings are not
standardised; these are the regular ones):
  - the inherent vowel a is not written at a word's end after a single
    consonant (कर kar), nor between two consonants in the middle of a word
    where a vowel stands on either side (करना karna: the schwa syncope of
    Ohala 1983, right to left);
  - a nasal vowel (anusvara, candrabindu) is written n: हैं hain, नहीं nahin;
  - a nukta letter is the Perso-Arabic sound: क़ q, ख़ kh, ग़ g, ज़ z, फ़ f,
    ड़ r, ढ़ rh.
Variants (variants()):
  - a long vowel written single or doubled: aa or a, ii, ee or i, uu, oo
    or u (आप aap, ap);
  - a final nasal dropped: hain hai, nahin nahi;
  - a y glide before a vowel letter after a vowel: लिए lie, liye; गए
    gae, gaye;
  - छ chh or ch: कुछ kuchh, kuch;
  - e before a final nasal also ei: में men, me, mein;
  - the vowel a of a word's first syllable dropped between two
    consonants: nahi nhi, karo kro;
  - व written v or w.
"""

import itertools

VOWELS = {"अ": "a", "आ": "A", "इ": "i", "ई": "I", "उ": "u", "ऊ": "U", "ऋ": "ri",
          "ए": "e", "ऐ": "ai", "ओ": "o", "औ": "au", "ऑ": "o", "ऍ": "e"}
SIGNS = {"ा": "A", "ि": "i", "ी": "I", "ु": "u", "ू": "U", "ृ": "ri", "े": "e",
         "ै": "ai", "ो": "o", "ौ": "au", "ॉ": "o", "ॅ": "e"}
CONS = {"क": "k", "ख": "kh", "ग": "g", "घ": "gh", "ङ": "n", "च": "ch", "छ": "chh",
        "ज": "j", "झ": "jh", "ञ": "n", "ट": "t", "ठ": "th", "ड": "d", "ढ": "dh",
        "ण": "n", "त": "t", "थ": "th", "द": "d", "ध": "dh", "न": "n", "प": "p",
        "फ": "ph", "ब": "b", "भ": "bh", "म": "m", "य": "y", "र": "r", "ल": "l",
        "व": "V", "श": "sh", "ष": "sh", "स": "s", "ह": "h", "ळ": "l"}
NUKTA = {"क": "q", "ख": "kh", "ग": "g", "ज": "z", "फ": "f", "ड": "r", "ढ": "rh"}
VIRAMA, NUKTA_SIGN, ANUSVARA, CANDRABINDU, VISARGA = "्", "़", "ं", "ँ", "ः"
PRECOMPOSED = {"क़": "क़", "ख़": "ख़", "ग़": "ग़", "ज़": "ज़", "ड़": "ड़", "ढ़": "ढ़", "फ़": "फ़", "य़": "य़"}


def devanagari(word):
    return any("\u0900" <= c <= "\u097f" for c in word)


def segments(word):
    """word as a list of ("C", latin) consonants and ("V", latin) vowels,
    ("N", "n") nasals; the inherent a is a ("V", "a", True)."""
    for pre, dec in PRECOMPOSED.items():
        word = word.replace(pre, dec)
    out = []
    i = 0
    while i < len(word):
        c = word[i]
        if c in CONS:
            lat = CONS[c]
            if i + 1 < len(word) and word[i + 1] == NUKTA_SIGN:
                lat = NUKTA.get(c, lat)
                i += 1
            out.append(("C", lat))
            nxt = word[i + 1] if i + 1 < len(word) else ""
            if nxt in SIGNS:
                out.append(("V", SIGNS[nxt]))
                i += 1
            elif nxt == VIRAMA:
                i += 1
            else:
                out.append(("S", "a"))  # the inherent vowel
        elif c in VOWELS:
            if out and out[-1][0] in "VS":
                out.append(("G", "Y"))  # a glide chat may write: लिए liYe
            out.append(("V", VOWELS[c]))
        elif c in (ANUSVARA, CANDRABINDU):
            out.append(("N", "N"))
        elif c == VISARGA:
            out.append(("C", "h"))
        i += 1
    return out


def syncope(seg):
    """The inherent vowels chat does not write: at the end after a single
    consonant, and in V C _ C V, right to left."""
    seg = list(seg)
    if len(seg) >= 2 and seg[-1][0] == "S" and not (len(seg) >= 3 and seg[-3][0] == "C"):
        seg.pop()
    i = len(seg) - 2
    while i >= 2:
        if (seg[i][0] == "S" and seg[i - 1][0] == "C" and seg[i - 2][0] in "VS"
                and i + 2 < len(seg) and seg[i + 1][0] == "C" and seg[i + 2][0] in "VS"):
            del seg[i]
            i -= 2
            continue
        i -= 1
    return seg


def romanize(word):
    """The Hunterian spelling without diacritics of a Devanagari word,
    lower case; its long vowels are upper case (A I U), व is V, a glide
    between vowels Y, छ's h H and a nasal vowel's n N, for variants() to
    spell."""
    return "".join(lat for _, lat in syncope(segments(word))).replace("chh", "chH")


LONG = {"N": ("n",), "A": ("a", "aa"), "I": ("i", "ee", "ii"), "U": ("u", "oo", "uu"), "V": ("v", "w"), "Y": ("", "y"), "H": ("h", "")}


def plain(word):
    """word's standard spelling: long vowels single, व v."""
    return "".join(LONG[c][0] if c in LONG else c for c in word)


def variants(word):
    """The spellings chat gives a romanized word (romanize's output), the
    standard one first."""
    marked = [word]
    if len(word) >= 4 and word[0] not in "aeiouAIU" and word[1] == "a" and word[2] not in "aeiouAIUY":
        marked.append(word[0] + word[2:])  # the first syllable's a dropped: nahIN nhIN
    for m in list(marked):
        if m.endswith("N"):
            marked.append(m[:-1])  # a final nasal dropped: haiN hai
        if m.endswith("eN"):
            marked.append(m[:-2] + "eiN")  # chat's ei before a final nasal: meN mein
    out = [plain(word)]
    for m in marked:
        for p in itertools.product(*[LONG.get(c, (c,)) for c in m]):
            f = "".join(p)
            if f not in out:
                out.append(f)
    return out


def imperatives(lemma):
    """The forms of a verb's infinitive (करना) that chat orders and asks
    with, romanized as romanize() marks them: the stem with o, e, en, iye
    (karo, kare, karen, kariye; after a vowel a glide: बजाना bajaye)."""
    word = romanize(lemma)
    if not word.endswith("nA") or len(word) < 3:
        return []
    stem = word[:-2]
    glide = "Y" if stem[-1] in "aeiouAIU" else ""
    return [stem + "o", stem + glide + "e", stem + glide + "eN", stem + "iYe"]
