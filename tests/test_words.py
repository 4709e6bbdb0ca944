"""Words for people: a single slip (a letter left out, added, changed, or two neighbours
swapped) is told from a name of its own."""

from hypothesis import given
from hypothesis import strategies as st

from companion.words import one_slip_apart, slips_from

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=10)


@given(words, st.data())
def test_every_single_slip_of_a_word_is_one_slip_apart_both_ways(word, data):
    at = data.draw(st.integers(0, len(word) - 1))
    letter = data.draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz"))
    slips = [word[:at] + word[at + 1 :], word[:at] + letter + word[at:]]
    if letter != word[at]:
        slips.append(word[:at] + letter + word[at + 1 :])
    if at + 1 < len(word) and word[at] != word[at + 1]:
        slips.append(word[:at] + word[at + 1] + word[at] + word[at + 2 :])
    for slip in slips:
        assert one_slip_apart(word, slip) and one_slip_apart(slip, word)


@given(words)
def test_a_word_is_no_slip_of_itself_nor_of_a_word_two_letters_longer(word):
    assert slips_from(word, [word]) == []
    assert not one_slip_apart(word, word + "ab")


def test_names_that_merely_look_alike_are_no_slips():
    colours = ["red", "green", "blue", "black", "grey", "rouge"]
    assert slips_from("rde", colours) == ["red"]
    assert slips_from("gren", colours) == ["green", "grey"]
    assert slips_from("lilac", colours) == slips_from("rose", colours) == slips_from("bleu", ["black"]) == []
    assert not one_slip_apart("abcd", "badc")  # two swaps are two slips
