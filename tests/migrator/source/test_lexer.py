"""The one Oracle lexer: every character kept (properties over arbitrary text), q-quotes, strings and
quoted identifiers with arbitrary content, strictness for units, the token-list helpers, and the
points where the reader's, the DDL rules' and the PL/SQL parser's old tokenizers disagreed (each
now read as Oracle reads it)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from migrator.source.identifiers import fold
from migrator.source.lexer import (
    BIND,
    NUMBER,
    OP,
    ORACLE_OPS,
    QIDENT,
    STRING,
    TRIVIA_KINDS,
    UNTERMINATED,
    WORD,
    LexError,
    LineIndex,
    Token,
    code_texts,
    code_tokens,
    find_top_level,
    is_slash_line,
    iter_tokens,
    matching_paren,
    split_top_level,
    string_value,
    tokenize,
)

ANY_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)
SQLISH = st.text(alphabet="abqQnN019 _$#:;/'\"-*()[]{}<>.,=!^~|\n\t€é", max_size=120)


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(text)]


# -- nothing is lost -----------------------------------------------------------------------------
@given(st.one_of(ANY_TEXT, SQLISH))
def test_every_token_together_is_the_text_with_offsets_kept(text):
    tokens = list(iter_tokens(text))
    assert "".join(t.text for t in tokens) == text
    pos = 0
    for t in tokens:
        assert (t.start, t.text) == (pos, text[t.start : t.end]) and t.end > t.start
        pos = t.end
    assert pos == len(text)


@given(st.one_of(ANY_TEXT, SQLISH))
def test_code_texts_reads_what_code_tokens_reads(text):
    # the dependency scan's fast path (one regex, no Token objects) must see the same tokens
    kinds, texts = code_texts(text)
    assert list(zip(kinds, texts)) == [(t.kind, t.text) for t in code_tokens(text)]


EDGES = ["q'[a]]'", "q'[a]' ]'", "q'''", "q''", "'a''", "''''", '""""', '"a""', "/*/", "/**/", "nq'(a)b)'",
         "x q'{a}' y", "Q'!a!'", "q'\n\n'", "'abc", "/* abc", "1..5", ":a :1 : $ # ~", "n'x' N'"]  # fmt: skip


@pytest.mark.parametrize("text", EDGES + [a + b for a in EDGES for b in EDGES])
def test_code_texts_on_the_delimiters_edge_cases(text):
    kinds, texts = code_texts(text)
    assert list(zip(kinds, texts)) == [(t.kind, t.text) for t in code_tokens(text)]
    assert _fields(code_tokens(text)) == _fields(_reference_code_tokens(text))
    assert _tokenized(tokenize, text) == _tokenized(_reference_tokenize, text)


def _fields(tokens) -> list[tuple]:
    return [(t.kind, t.text, t.start, t.end, t.detail) for t in tokens]


def _reference_code_tokens(text: str, start: int = 0, end: int | None = None):
    """code_tokens as it was first written: iter_tokens less the trivia."""
    return [t for t in iter_tokens(text, start, end) if t.kind not in TRIVIA_KINDS]


def _reference_tokenize(text: str, *, eof: bool = False) -> list[Token]:
    """tokenize as it was first written, over iter_tokens."""
    tokens = []
    for tok in _reference_code_tokens(text):
        if tok.kind == UNTERMINATED:
            raise LexError(f"unterminated {tok.detail} at offset {tok.start}")
        if tok.kind == OP and tok.text not in ORACLE_OPS and len(tok.text) == 1:
            raise LexError(f"unexpected character {tok.text!r} at offset {tok.start}")
        tokens.append(tok)
    if eof:
        tokens.append(Token("eof", "", len(text), len(text)))
    return tokens


def _tokenized(tokenizer, text: str):
    try:
        return _fields(tokenizer(text, eof=True))
    except LexError as exc:
        return str(exc)


@given(st.one_of(ANY_TEXT, SQLISH), st.integers(0, 250), st.integers(0, 250))
def test_the_trivia_skipping_readers_read_what_iter_tokens_reads(text, a, b):
    # code_tokens and tokenize make no Token for whitespace and comments (one regex of their own)
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    assert _fields(code_tokens(text, start, end)) == _fields(_reference_code_tokens(text, start, end))
    assert _fields(code_tokens(text, start)) == _fields(_reference_code_tokens(text, start))
    assert _tokenized(tokenize, text) == _tokenized(_reference_tokenize, text)


@given(SQLISH)
def test_code_tokens_and_the_gaps_between_them_reproduce_the_text(text):
    out, pos = [], 0
    for t in code_tokens(text):
        gap = text[pos : t.start]
        assert all(g.kind in TRIVIA_KINDS for g in iter_tokens(gap)), gap  # only blanks and comments
        out += [gap, t.text]
        pos = t.end
    assert all(g.kind in TRIVIA_KINDS for g in iter_tokens(text[pos:]))
    assert "".join(out) + text[pos:] == text


@given(SQLISH, st.integers(0, 60), st.integers(0, 60))
def test_a_window_reads_exactly_its_own_characters(text, a, b):
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    assert "".join(t.text for t in iter_tokens(text, start, end)) == text[start:end]


# -- delimited tokens with arbitrary content -------------------------------------------------------
@given(st.sampled_from(["[]", "()", "{}", "<>", "!!", "##", "aa", "~~"]), ANY_TEXT, st.sampled_from(["q", "Q", "nq"]))
def test_a_q_quote_holds_any_text_without_its_closer(delims, body, prefix):
    open_, close = delims
    body = body.replace(close + "'", "")
    literal = f"{prefix}'{open_}{body}{close}'"
    (tok,) = tokenize(literal)
    assert (tok.kind, tok.text, string_value(tok)) == (STRING, literal, body)


@given(ANY_TEXT)
def test_a_string_holds_any_text_with_doubled_quotes(body):
    literal = "'" + body.replace("'", "''") + "'"
    (tok,) = tokenize(f"N{literal}")
    assert tok.kind == STRING and string_value(tok) == body


@given(ANY_TEXT.filter(bool))
def test_a_quoted_identifier_holds_any_text_with_doubled_quotes(name):
    written = '"' + name.replace('"', '""') + '"'
    toks = tokenize(f"SELECT {written}.x FROM t")
    assert (toks[1].kind, toks[1].text) == (QIDENT, written)
    assert fold(written) in (name, name.lower())  # the whole name, never cut at an inner quote
    assert [t.text for t in toks[2:4]] == [".", "x"]


def test_q_quote_delimiters_close_with_their_mirror_or_themselves():
    assert string_value(tokenize("q'[it's]'")[0]) == "it's"
    assert string_value(tokenize("q'{a}b}'")[0]) == "a}b"
    assert string_value(tokenize("Q'!x'y!'")[0]) == "x'y"
    assert string_value(tokenize("nq'<a>'")[0]) == "a"
    assert string_value(Token(WORD, "x", 0, 1)) is None


# -- what the reader sees, what a unit may hold -----------------------------------------------------
def test_the_reader_keeps_unterminated_text_and_odd_characters_but_tokenize_refuses_them():
    for text, what in (("'abc", "string"), ('"abc', "identifier"), ("/* abc", "comment"), ("q'[abc'", "string")):
        last = list(iter_tokens(text))[-1]
        assert (last.kind, last.detail, last.text) == (UNTERMINATED, what, text)
        with pytest.raises(LexError, match=f"unterminated {what} at offset 0"):
            tokenize(text)
    for odd in ("$", "#", "`", "\\", ":", "~"):
        assert [(t.kind, t.text) for t in iter_tokens(f"a {odd} b")][2] == (OP, odd)
        with pytest.raises(LexError, match="unexpected character"):
            tokenize(f"a {odd} b")


def test_names_start_with_a_letter_and_may_hold_dollar_and_hash():
    # the DDL rules' tokenizer read "#a" and "$a" as names; Oracle refuses both (ORA-00911)
    assert _kinds("emp$ x#1 café") == [(WORD, "emp$"), (WORD, "x#1"), (WORD, "café")]
    with pytest.raises(LexError, match="unexpected character '#'"):
        tokenize("CREATE TABLE t (#a NUMBER)")
    with pytest.raises(LexError, match="unexpected character '\\$'"):
        tokenize("SELECT $a FROM t")


def test_a_range_is_number_dotdot_number():
    # the DDL rules' tokenizer read "1..5" as "1." "." "5"; PL/SQL's FOR i IN 1..5 is a range
    assert _kinds("1..5") == [(NUMBER, "1"), (OP, ".."), (NUMBER, "5")]
    assert _kinds("1. .5 1.5e3 2d") == [(NUMBER, "1."), (NUMBER, ".5"), (NUMBER, "1.5e3"), (NUMBER, "2d")]


def test_binds_labels_and_two_character_operators_are_one_token_everywhere():
    # the reader saw ":" and "new", the DDL rules "<" "<" and "~" "="; PL/SQL reads one token each
    text = "<<top>> :new.sal := :1; IF a ~= b OR a ^= b OR a != b OR a <> b THEN x := :café; END IF;"
    toks = _kinds(text)
    assert toks[:7] == [(OP, "<<"), (WORD, "top"), (OP, ">>"), (BIND, ":new"), (OP, "."), (WORD, "sal"), (OP, ":=")]
    assert (BIND, ":1") in toks and (BIND, ":café") in toks
    assert [t for _, t in toks if t in ("~=", "^=", "!=", "<>")] == ["~=", "^=", "!=", "<>"]
    assert [(t.kind, t.text) for t in code_tokens(text)] == toks  # the reader sees the same tokens


def test_comments_are_trivia_and_a_slash_alone_on_its_line_ends_a_block():
    text = "BEGIN NULL; END; -- done\n /* c */\n  /  \nSELECT 4 / 2 FROM dual\n"
    toks = list(iter_tokens(text))
    assert [t.kind for t in toks if t.text.startswith(("--", "/*"))] == ["line_comment", "block_comment"]
    slashes = [t for t in toks if t.text == "/"]
    assert [is_slash_line(text, t) for t in slashes] == [True, False]


def test_tokenize_with_eof_lets_a_parser_look_past_the_end():
    toks = tokenize("x := 1;", eof=True)
    assert (toks[-1].kind, toks[-1].start, toks[-1].end) == ("eof", 7, 7)
    assert toks[-2].is_op(";") and toks[0].is_word("X") and toks[0].upper == "X"
    assert Token(STRING, "'x'", 0, 3).upper == "'x'"  # only words compare upper case


# -- helpers over token lists ----------------------------------------------------------------------
def _texts(parts):
    return [" ".join(t.text for t in p) for p in parts]


def test_split_top_level_splits_only_outside_parentheses():
    assert _texts(split_top_level(tokenize("a, f(b, c), (d, e) x, 'f,g'"))) == [
        "a",
        "f ( b , c )",
        "( d , e ) x",
        "'f,g'",
    ]
    assert split_top_level([]) == [] and _texts(split_top_level(tokenize("a,,b"))) == ["a", "", "b"]
    assert _texts(split_top_level(tokenize("a OR b OR c"), "OR")) == ["a OR b OR c"]  # separators are operators
    assert _texts(split_top_level(tokenize("a | b"), "|")) == ["a", "b"]


@given(st.lists(st.sampled_from(["a", "1", ",", "(", ")", "'x,y'"]), max_size=30))
def test_split_top_level_keeps_every_token_and_splits_at_every_outer_comma(words):
    toks = tokenize(" ".join(words))
    parts = split_top_level(toks)
    rejoined = [t for k, p in enumerate(parts) for t in ([] if k == 0 else [None]) + p]
    assert [t.text if t else "," for t in rejoined] == [t.text for t in toks]
    for part in parts:
        depth = 0
        for t in part:
            depth += t.is_op("(") - t.is_op(")")
            assert not (depth == 0 and t.is_op(","))


def test_matching_paren_and_find_top_level():
    toks = tokenize("f(a, (b)) INTO x FROM (SELECT 1 INTO y FROM dual)")
    assert matching_paren(toks, 1) == 7 and toks[7].is_op(")")
    assert find_top_level(toks, "INTO", "FROM") == 8 and find_top_level(toks, "FROM") == 10
    assert find_top_level(toks, "INTO", start=9) is None  # the other INTO is inside parentheses
    with pytest.raises(LexError, match="unbalanced"):
        matching_paren(tokenize("f(a"), 1)


def test_line_index_maps_offsets_to_lines():
    lines = LineIndex("a\nbc\n\nd")
    assert [lines.line(k) for k in (0, 1, 2, 4, 5, 6)] == [1, 1, 2, 2, 3, 4]


def test_keeping_tokens_caches_every_text_then_only_the_last_few():
    from migrator.source import lexer

    texts = [f"SELECT c{i} FROM t{i}" for i in range(3 * lexer._RECENT_SIZE)]
    with lexer.keeping_tokens():
        for text in texts:
            lexer.tokenize(text)
        assert all((text, False) in lexer._RECENT for text in texts)
    assert [key for key in lexer._RECENT if key[0] in texts] == [(t, False) for t in texts[-lexer._RECENT_SIZE :]]
    assert len(lexer._RECENT) <= lexer._RECENT_SIZE
