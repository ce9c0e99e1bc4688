"""A quote that says the question's words about another name answers another question."""

from __future__ import annotations

from masis.judge import grounding, swaps
from masis.state import EvidenceChunk


def _chunk(chunk_id: str, text: str) -> EvidenceChunk:
    return {"chunk_id": chunk_id, "doc_name": chunk_id.split("#")[0], "text": text, "page": None, "section": None,
            "relevance": 1.0, "score": 1.0}


def _quoted(*claims: str, section: str | None = None) -> list[tuple[str, EvidenceChunk]]:
    """Each claim quoted from a passage of its own under `section`."""
    return [(claim, {**_chunk(f"notes.txt#{n}", claim), "section": section}) for n, claim in enumerate(claims)]


def test_a_name_beside_the_same_words_is_swapped() -> None:
    assert swaps.swapped("Who runs the Santiago office?",
                         ["Ana Ruiz runs the Oslo office.", "The Santiago office opened in 2021."]) == [
        ("Santiago", "Oslo")]
    assert swaps.swapped("What did Toyota rebrand its Forte as?",
                         ["Mitsubishi rebranded its Forte as the Dodge D-50."]) == [("Toyota", "Mitsubishi")]
    assert swaps.swapped("Minister Robert Dinwiddie had an investment in what company?",
                         ["Governor Robert Dinwiddie of Virginia was an investor in the Ohio Company."]) == [
        ("Minister", "Governor")]
    # one stop word may stand between: "TRANSPAC and TYMNET" / "TELENET and TYMNET"
    assert swaps.swapped("How were TRANSPAC and TYMNET modified?",
                         ["Some older networks such as TELENET and TYMNET were modified to provide an X.25 host "
                          "interface.", "Some such as DATAPAC and TRANSPAC were initially implemented with X.25."])

    # a passive names the doer after its verb
    assert swaps.swapped("Telstra started what in the early 1980s?",
                         ["Started by Telecom Australia in the early 1980s, AUSTPAC was Australia's first public "
                          "packet-switched data network.", "AUSTPAC was an Australian X.25 network operated by "
                          "Telstra."]) == [("Telstra", "Telecom")]


def test_the_name_itself_beside_the_words_is_no_swap() -> None:
    assert not swaps.swapped("Who runs the Santiago office?", ["Ana Ruiz runs the Santiago office."])
    assert not swaps.swapped("What does ERR_SOCKET_BAD_PORT mean?",
                             ["ERR_SOCKET_BAD_PORT: an API function expecting a port received an invalid value."])
    # lower-case words in the name's place are no name: "the Santiago budget" / "the annual budget"
    assert not swaps.swapped("What is the Santiago budget?", ["The annual budget is $2 million."])
    # a code or model number is the anchor floor's to check, not a name to swap ("Heron S1" / "Heron Care")
    assert not swaps.swapped("Is accidental damage covered on the Heron S1?",
                             ["Accidental damage is not included; it can be added with Heron Care, which costs $89."])
    # months and days are not names ("Sept" / "September")
    assert not swaps.swapped("In Sept 1760 who negotiated a capitulation?",
                             ["In September 1760 Governor Vaudreuil negotiated a capitulation."])


def test_only_the_answering_quote_is_read() -> None:
    # the quote beside the one that answers shares a word with the question, not its ask
    quotes = ["maxHeaderSize {number} Optionally overrides the value of --max-http-header-size for requests received "
              "by this server, i.e. the maximum length of request headers in bytes.",
              "Default: 16384 (16 KiB).",
              "If set to true, Node.js will check whether the Content-Length header value and the size of the body, "
              "in bytes, are equal."]
    question = "What is the default maximum size of HTTP headers in Node.js (--max-http-header-size)?"
    assert not swaps.swapped(question, quotes)


def test_the_grounding_floor_flags_a_swapped_name() -> None:
    evidence = [_chunk("staff.csv#1", "Ana Ruiz runs the Oslo office. The Santiago office opened in 2021.")]
    answer = "Ana Ruiz runs the Oslo office [staff.csv#1]."
    assert grounding.check("Who runs the Santiago office?", answer, evidence).swapped == [("Santiago", "Oslo")]
    assert not grounding.check("Who runs the Oslo office?", answer, evidence).swapped


def test_a_code_of_the_same_shape_beside_the_same_words_is_swapped() -> None:
    chunk = _chunk("Packet_switching-022.txt#1", "")
    quotes = [("By 1998, the vBNS connected 100 universities via OC-3c and OC-12c links on an all OC-12c backbone.",
               chunk),
              ("The vBNS installed one of the first OC-48c IP links in February 1999 and went on to upgrade the entire "
               "backbone to OC-48c.", chunk)]
    assert swaps.swapped_codes("When was OC-12c upgraded?", quotes) == [("OC-12c", "OC-48c")]
    errors = _chunk("errors.md#3", "")
    assert swaps.swapped_codes("What does error E1042 mean?", [("Error E1043 means the disk is full.", errors)]) == [
        ("E1042", "E1043")]


def test_the_code_held_by_the_quote_or_its_heading_is_no_swap() -> None:
    heading = {**_chunk("errors.md#3", ""), "section": "E1042"}
    assert not swaps.swapped_codes("What does error E1042 mean?", [("It means the disk is full; E1043 is worse.",
                                                                    heading)])
    # a code of another shape is another kind of thing: "IPv6" is no swap for "OC-12c"
    assert not swaps.swapped_codes("When was OC-12c upgraded?",
                                   [("The backbone was upgraded to IPv6 in 1999.", _chunk("net.md#1", ""))])
    # versions without letters are the anchor floor's ("2.39.4" beside "2.39.5" in one release note)
    assert not swaps.swapped_codes("Which tools broke in Git 2.39.5?",
                                   [("This release reverts the changes of 2.39.4 that broke git lfs.",
                                     _chunk("git-2.39.5.txt#1", ""))])


def test_another_code_the_question_names_too_is_no_swap() -> None:
    # conversations tune cv-432#3: the quote that says "lockfileVersion" names v7, which the question asks about too
    quotes = _quoted("2: The lockfile version used by npm v7 and v8", "Backwards compatible to v1 lockfiles",
                     "Lockfiles generated by npm v7 will contain lockfileVersion: 2")
    assert swaps.swapped_codes("which lockfileVersion do npm v7 and v8 use?", quotes) == []
    # … while a code it does not name still is one
    assert swaps.swapped_codes("which lockfileVersion does npm v8 use?", quotes[2:]) == [("v8", "v7")]


def test_a_version_after_the_same_name_is_swapped_whatever_the_heading_says() -> None:
    # nextdocs tune nd-064: Zip's WHATSNEW opens "… major changes for Zip 3.0", and lists 3.1's plans further down
    whatsnew = _chunk("zip-WHATSNEW.txt#1", "What's New: This file is the full list of new features and major "
                      "changes for Zip 3.0 by beta release.")
    plans = ("Below are some of the more significant items on the list for Zip 3.1 (see ToDo for a more complete "
             "list): - AES encryption. - Extended attributes for Windows, Linux, and Mac OS X.")
    opening = "What's New: This file is the full list of new features and major changes for Zip 3.0 by beta release."
    question = "Which Zip 3.0 option turns on AES encryption?"
    assert swaps.swapped_versions(question, [(plans, whatsnew), (opening, whatsnew)]) == [("Zip 3.0", "Zip 3.1")]
    assert grounding.check(question, f"{plans} [zip-WHATSNEW.txt#1].", [whatsnew]).swapped == [("Zip 3.0", "Zip 3.1")]
    notes = _chunk("NEWS.md#2", "")
    assert swaps.swapped_versions("What changed in release 2.4.0?", [("Release 2.1.0 changed the parser.", notes)]) == [
        ("release 2.4.0", "release 2.1.0")]


def test_a_quote_that_names_the_asked_version_or_another_depth_is_no_version_swap() -> None:
    notes = _chunk("NEWS.md#2", "")
    assert not swaps.swapped_versions("What changed in release 2.4.0?",
                                      [("Release 2.4.0 changed the parser, unlike release 2.1.0.", notes)])
    # "Python 3" is no release of "Python 3.12"; a number after no name is not a release ("of 2.39.4")
    assert not swaps.swapped_versions("What is new in Python 3.12?", [("Python 3 is the only line kept now.", notes)])
    assert not swaps.swapped_versions("Which tools broke in Git 2.39.5?",
                                      [("This release reverts the changes of 2.39.4 that broke git lfs.", notes)])


def test_a_major_version_after_a_packages_lower_case_name_is_swapped() -> None:
    # guidedocs tune gd-051 (answered at 0.85): libjpeg-turbo emulates the v8 ABI, and the v9 one is asked about
    readme = _chunk("libjpeg-turbo-README.md#3", "")
    question = "does libjpeg-turbo emulate the libjpeg v9 ABI? boss is asking"
    assert swaps.swapped_versions(question, [("While libjpeg-turbo does emulate the libjpeg v8 API/ABI, it still "
                                              "uses the same algorithms as libjpeg v6b.", readme)]) == [
        ("libjpeg v9", "libjpeg v8")]
    assert not swaps.swapped_versions(question, [("There is no technical justification to emulate the libjpeg v9 "
                                                  "ABI.", readme)])
    # a stop word is no package: "the v9 ABI" names no release
    assert not swaps.swapped_versions("Is the v9 ABI emulated?", [("The v8 ABI is emulated.", readme)])


def test_a_flag_is_no_word_for_a_name_to_stand_beside() -> None:
    # conversations cv-036 in a two-document workspace: "Massif's --depth" / "Maximum depth of the allocation trees"
    assert swaps.swapped("What is the default value of Massif's --depth option?",
                         ["Maximum depth of the allocation trees recorded for detailed snapshots."]) == []


def test_a_lower_case_word_telling_one_thing_from_another_is_swapped() -> None:
    # configdocs tune cd-013 (a near miss answered at 0.83): the tty group's GID for the audio group's
    question = "Which GID does systemd assign to the audio group?"
    quotes = ["However, it does define some special group/GID assignments, which are primarily used for "
              "systemd-udevd's device management.", "There's one exception however: the tty group must have the GID 5."]
    assert swaps.swapped_modifiers(question, quotes) == [("audio group", "tty group")]
    # a quote about the thing asked about stands beside its neighbours; a closed-set word is the contrast floor's
    budget = ["The travel budget is $0.9 million.", "The marketing budget is $5.6 million."]
    assert swaps.swapped_modifiers("What is the travel budget?", budget) == []
    assert swaps.swapped_modifiers("What is the maximum heap size?", ["The minimum heap size is 4 GB."]) == []
    # SQuAD 2.0 seed 1: words in other words, and a name in the slot, are no swap
    assert swaps.swapped_modifiers("When did France begin in earnest to rebuild its global empire?",
                                   ["France began in earnest to rebuild its worldwide empire after 1850."]) == []
    assert swaps.swapped_modifiers("What did the network install in 1999",
                                   ["The vBNS installed one of the first ever production OC-48c IP links."]) == []
    # open-book SQuAD seed 3: after "did", the determiner's words are a subject and its verb, not a thing's kind
    assert swaps.swapped_modifiers("Did the plague spread in Scandinavia or Germany first?",
                                   ["From Italy, the disease spread northwest across Europe."]) == []


def test_a_date_quoted_only_beside_another_release_is_that_releases() -> None:
    # moredocs check md-027: Underscore's change log quotes 1.3.2 in an advisory and the date beside 1.12.1
    advisory = ("Change Log: This issue affects all versions of Underscore between 1.3.2 and 1.12.0, inclusive, as "
                "well as preview releases 1.13.0-0 and 1.13.0-1")
    dated = "1.12.1 — March 15, 2021 — Diff — Docs"
    question = "When was Underscore 1.3.2 released?"
    assert swaps.typed_of_other_release(question, _quoted(advisory, dated)) == [("1.3.2", "1.12.1")]
    log = _chunk("underscore-index.html#80", f"{advisory}. {dated}.")
    draft = f"{advisory} [underscore-index.html#80]. {dated} [underscore-index.html#80]."
    assert ("1.3.2", "1.12.1") in grounding.check(question, draft, [log]).swapped


def test_a_date_after_another_release_in_the_quote_that_names_the_asked_one_is_the_others() -> None:
    # hostdocs thread cv-352#2: grep's NEWS glues the end of 3.5's item to 3.6's heading and date
    question = "When was GNU grep 3.5 released?"
    glued = ("(Bug#44754 introduced in grep 3.5) * Noteworthy changes in release 3.6 (2020-11-08) [stable] ** Changes "
             "in behavior")
    assert swaps.typed_of_other_release(question, _quoted(glued)) == [("3.5", "3.6")]
    # the asked release's own heading and date, even after another release's, is its own
    both = "(Bug#1 introduced in grep 3.4) * Noteworthy changes in release 3.5 (2020-09-27) [stable]"
    assert not swaps.typed_of_other_release(question, _quoted(both))
    assert not swaps.typed_of_other_release(question, _quoted(glued, both))
    # a date said before any release may be any release's
    assert not swaps.typed_of_other_release(question, _quoted("On 2020-09-27 grep 3.5 was out, and 3.6 followed"))


def test_a_release_of_another_depth_is_another_release_unless_it_is_the_asked_ones_line() -> None:
    # sysdocs tune sy-021 (near miss, its first run): sed's NEWS dates 4.8, not 4.2.1
    heading = "Now, it prints X * Noteworthy changes in release 4.8 (2020-01-14) [stable] ** Bug fixes"
    assert swaps.typed_of_other_release("When was GNU sed 4.2.1 released?", _quoted(heading)) == [("4.2.1", "4.8")]
    assert not swaps.typed_of_other_release("When was GNU sed 4.8 released?", _quoted(heading))
    # a date written with dots is no release (secdocs tune sc-047, stunnel's release table)
    assert not swaps.typed_of_other_release("When was stunnel 4.57 released?",
                                            _quoted("Version: 4.57; Release date: 2015.04.01; Urgency: HIGH"))


def test_a_date_beside_the_asked_release_or_beside_no_release_is_its_own() -> None:
    question = "When was Underscore 1.3.2 released?"
    assert not swaps.typed_of_other_release(question, _quoted("1.3.2 — April 9, 2012 — Diff — Docs"))
    assert not swaps.typed_of_other_release(question, _quoted("Released on April 9, 2012."))
    # another depth is no other release of the same line ("1.3" is the line 1.3.2 belongs to)
    assert not swaps.typed_of_other_release(question, _quoted("The 1.3 line began on March 3, 2012."))
    # a question that asks for no date or number, or names no release, is not read so
    assert not swaps.typed_of_other_release("What changed in Underscore 1.3.2?", _quoted("1.12.1 — March 15, 2021"))
    assert not swaps.typed_of_other_release("When was Underscore first released?", _quoted("1.12.1 — March 15, 2021"))


def test_a_quote_that_names_no_release_is_read_under_its_heading() -> None:
    # sysdocs tune sy-021: "10 years" from 4.3's entry of sed's NEWS beside 4.3's and 4.2.2's dated headings
    question = "When was GNU sed 4.2.1 released?"
    dated = "Noteworthy changes in release 4.2.2 (2012-12-22) [stable]: * a preexisting GNU gettext is needed"
    plain = "The \"L\" command has been listed in the documentation as a failed experiment for at least 10 years"
    assert not swaps.typed_of_other_release(question, _quoted(dated, plain))
    under_43 = _quoted(plain, section="Noteworthy changes in release 4.3 (2016-12-30) [stable]")
    assert swaps.typed_of_other_release(question, [*_quoted(dated), *under_43]) == [("4.2.1", "4.2.2")]
    # under the asked release's own heading, or under a heading that names none, the quote may be its own
    assert not swaps.typed_of_other_release(question, [*_quoted(dated), *_quoted(plain, section="Release 4.2.1")])
    assert not swaps.typed_of_other_release(question, [*_quoted(dated), *_quoted(plain, section="Bug fixes")])
    # kitdocs tune kt-001: a heading that names the asked release beside the one before it heads the asked one's changes
    primality = "Functions to detect primality now substitute the first 24 Miller-Rabin iterations with the BPSW test"
    assert not swaps.typed_of_other_release(
        "In GMP 6.2.0, the functions that detect primality substitute how many Miller-Rabin iterations?",
        _quoted(primality, section="Changes between GMP version 6.1.* and 6.2.0"))


def test_a_scoped_keys_group_names_its_other_settings_without_a_swap() -> None:
    # apt.conf(5)'s passage quotes "Acquire::Languages" beside the asked setting's own entry (sysdocs tune sy-095)
    question = "What is the default Acquire::MaxReleaseFileSize in apt.conf?"
    quotes = ["MaxReleaseFileSize The maximum file size of Release/Release.gpg/InRelease files.",
              "Acquire::Languages { \"environment\"; \"de\"; }; Note: all Translation files are added."]
    assert swaps.swapped(question, quotes) == []
    # a plain name beside the same words is still swapped
    assert swaps.swapped("Who runs the Santiago office?", ["Ana Ruiz runs the Oslo office."]) == [("Santiago", "Oslo")]


def test_a_release_counted_from_is_no_other_release() -> None:
    # git 2.36's notes (conversation cv-127): "Updates since Git 2.35" heads the section that fixes CVE-2022-24765
    notes = _chunk("git-2.36.0.txt#2", "")
    quotes = [("* With the fixes for CVE-2022-24765, Git has been taught not to recognise others' repositories.",
               notes), ("Updates since Git 2.35", notes)]
    assert swaps.swapped_versions("Which CVE was behind Git 2.36?", quotes) == []
    assert swaps.swapped_versions("Which CVE was behind Git 2.36?", [("Git 2.35 fixed CVE-2022-24765.", notes)]) == [
        ("Git 2.36", "Git 2.35")]


def test_a_label_capitalised_where_it_stands_is_no_name() -> None:
    # servicedocs tune sv-049, stackdocs sd-058, tooldocs tl-085: a changelog's label and a table's field stood where
    # the question's name stands, and right drafts were asked back
    assert swaps.swapped("In PgBouncer's DNS backend table, which backend is IPv4 only?",
                         ["New DNS backend: c-ares"]) == []
    assert swaps.swapped("What was Helmet's Strict-Transport-Security max-age before 8.0.0?",
                         ["Breaking: Strict-Transport-Security now has a max-age of 365 days, up from 180"]) == []
    assert swaps.swapped("Which Clippy lint does the stack-size-threshold option configure?",
                         ["Option: stack-size-threshold; Default value: 512000; "
                          "Affected lints: large_stack_frames"]) == []
    # inside a sentence the same word is a name's place
    assert swaps.swapped("Which Clippy lint does it configure?", ["The New lints: large_stack_frames"]) == [
        ("Clippy", "New")]
