"""The figure a "how many / how much" question asks for must be said about the question's own subject."""

from __future__ import annotations

from masis.judge import grounding, subjects
from masis.judge.terms import terms
from masis.state import EvidenceChunk


def _chunk(chunk_id: str, text: str, section: str | None = None) -> EvidenceChunk:
    return {"chunk_id": chunk_id, "doc_name": chunk_id.split("#")[0], "text": text, "page": None, "section": section,
            "relevance": 1.0, "score": 1.0}


def test_a_figure_said_about_a_neighbour_is_not_the_subjects() -> None:
    chunk = _chunk("Huguenot-011.txt#1", "Most are concentrated in Alsace and the Cévennes mountain region in the "
                   "south. Approximately one million Protestants in modern France represent some 2% of its population.")
    quotes = [("Most are concentrated in Alsace and the Cévennes mountain region in the south.", chunk),
              ("Approximately one million Protestants in modern France represent some 2% of its population.", chunk)]
    assert subjects.figure_elsewhere("How many Protestants are there in the Cevennes mountain region?", quotes) == [
        "Cevennes"]
    # a product's figure quoted after a sentence about another product
    heron = "The Heron S1 has 8 cores and a fan-less case for small offices."
    sheet = _chunk("routers.md#2", f"The Falcon X2 ships in May. {heron}")
    assert subjects.figure_elsewhere("How many cores does the Falcon X2 have?",
                                     [("The Falcon X2 ships in May.", sheet), (heron, sheet)]) == [
        "Falcon", "X2"]


def test_the_figure_read_with_its_heading_document_or_referent_is_the_subjects() -> None:
    # the heading names the subject
    table = _chunk("budget.md#3", "The R&D budget is $11.5 million.", section="Kestrel Labs FY2026 budget")
    assert not subjects.figure_elsewhere("How big is Kestrel Labs' FY2026 R&D budget?",
                                         [("The R&D budget is $11.5 million.", table)])
    # the document's name does
    spec = _chunk("falcon_x2.md#4", "CPU: 8 cores at 2.1 GHz.")
    assert not subjects.figure_elsewhere("How many cores does the Falcon X2 have?",
                                         [("CPU: 8 cores at 2.1 GHz.", spec)])
    # a pronoun quote is read with the sentence before it
    sheet = _chunk("routers.md#2", "The Falcon X2 launches in May. It has 8 cores.")
    assert not subjects.figure_elsewhere("How many cores does the Falcon X2 have?",
                                         [("The Falcon X2 launches in May.", sheet), ("It has 8 cores.", sheet)])


def test_only_number_questions_with_anchors_are_read() -> None:
    chunk = _chunk("notes.txt#1", "The Oslo office has 40 staff.")
    assert not subjects.figure_elsewhere("Who runs the Santiago office?", [("The Oslo office has 40 staff.", chunk)])
    assert not subjects.figure_elsewhere("How many staff are there?", [("The Oslo office has 40 staff.", chunk)])
    # no quote gives a number: the type floor's case, not this one
    assert not subjects.figure_elsewhere("How many staff does Santiago have?", [("Santiago is busy.", chunk)])


def test_the_grounding_floor_flags_another_subjects_figure() -> None:
    evidence = [_chunk("Huguenot-026.txt#1", "In 1564 Jean Ribault established the colony of Fort Caroline. French "
                       "Huguenots made two attempts to establish a haven in North America.")]
    answer = ("In 1564 Jean Ribault established the colony of Fort Caroline [Huguenot-026.txt#1]. French Huguenots "
              "made two attempts to establish a haven in North America [Huguenot-026.txt#1].")
    floors = grounding.check("How many Huguenots were there in Fort Caroline?", answer, evidence)
    assert floors.figure_elsewhere == ["Fort", "Caroline"]
    assert not grounding.check("How many attempts did French Huguenots make?", answer, evidence).figure_elsewhere


def test_a_pronoun_quote_is_read_with_the_sentence_before_it_in_its_passage() -> None:
    # "It had uid 37." leans on the passage's sentence that names Debian, not on the quote shown before it
    text = ("Historically, the operator user account was used by system operators to dump backups to tape. In Debian, "
            "the use of sudo is preferred, and the operator user is no longer created by default. It had uid 37.")
    chunk = _chunk("base-passwd.html#9", text, section="Users and Groups")
    quotes = [("Historically, the operator user account was used by system operators to dump backups to tape.", chunk),
              ("Users and Groups: It had uid 37.", chunk)]
    assert not subjects.figure_elsewhere("Which uid did the operator user have on Debian?", quotes)


def test_a_first_person_quote_speaks_for_the_documents_author() -> None:
    memo: EvidenceChunk = {**_chunk("strategy_memo.pdf#2", "Our headline target is to cut fuel costs by 15% by the end "
                                    "of 2027 for customers who use our routing."),
                           "context_terms": sorted(terms("Kestrel Labs"))}
    quote = "Our headline target is to cut fuel costs by 15% by the end of 2027 for customers who use our routing."
    question = "By how much does Kestrel Labs aim to cut fuel costs by the end of 2027?"
    assert not subjects.figure_elsewhere(question, [(quote, memo)])
    # a third-person quote does not: the document names Kestrel Labs, the sentence another company
    other = "Nordlys aims to cut fuel costs by 15% by the end of 2027."
    assert subjects.figure_elsewhere(question, [(other, {**memo, "text": other})]) == ["Kestrel", "Labs"]


def test_a_table_row_is_read_under_its_tables_first_row_and_two_things_each_need_their_own() -> None:
    # conversations cv-012: "Weight | 1.1 kg" sits under "Item | Falcon X2"; "320 g" is said about the Heron S1
    falcon = _chunk("falcon_x2_datasheet.md#3", "Item | Falcon X2\nWeight | 1.1 kg\nIngress protection | IP67")
    heron = _chunk("heron_s1_datasheet.txt#1", "The Heron S1 has a 6-inch display and weighs 320 g.")
    question = "How much do the Falcon X2 and the Heron S1 weigh?"
    quotes = [("The Heron S1 has a 6-inch display and weighs 320 g.", heron), ("Weight | 1.1 kg", falcon)]
    assert subjects.figure_elsewhere(question, quotes) == []
    # the row alone, without its table's first row above it, is said about nothing the question names
    bare = _chunk("datasheets.md#4", "Weight | 1.1 kg\nIngress protection | IP67")
    assert subjects.figure_elsewhere("How much does the Falcon X2 weigh?", [("Weight | 1.1 kg", bare)]) == [
        "Falcon", "X2"]


def test_a_version_is_said_about_the_entry_the_question_keys() -> None:
    # real case (realdocs tune rd-220): the http page's version for its keep-alive timeout does not say when
    # timeout.close() became legacy; the timers page's entry for it gives no version
    http = _chunk("nodejs-http.md#100", "A value of 0 makes the http server behave similarly to Node.js versions prior "
                  "to 8.0.0, which did not have a keep-alive timeout.")
    timers = _chunk("nodejs-timers.md#8", "Stability: 3 - Legacy: Use clearTimeout() instead.", "timeout.close()")
    quotes = [(http["text"], http), ("Stability: 3 - Legacy: Use clearTimeout() instead.", timers)]
    question = "In which Node.js version was timeout.close() marked as legacy?"
    assert subjects.figure_elsewhere(question, quotes) == ["timeout.close"]
    # under the entry's own heading, its version is the entry's; a product's name may be its page's alone
    added = _chunk("nodejs-timers.md#8", "Added in: v0.9.1", "timeout.close()")
    assert subjects.figure_elsewhere(question, [("Added in: v0.9.1", added)]) == []
    msrv = _chunk("cargo-profiles.html#8", "MSRV: 1.71 is required for line-tables-only.")
    assert subjects.figure_elsewhere("What minimum Rust version do I need for line-tables-only in Cargo?",
                                     [(msrv["text"], msrv)]) == []


def test_a_code_is_said_about_the_release_the_question_names() -> None:
    # real case (realdocs tune rd-130): 2.39.2's notes name the CVEs; 2.39.1's, quoted beside them, name none
    later = _chunk("git-2.39.2.txt#1", "This release merges up the fixes to address the security issues "
                   "CVE-2023-22490 and CVE-2023-23946.")
    asked = _chunk("git-2.39.1.txt#1", "This release merges the security fix that appears in v2.30.7.")
    quotes = [(later["text"], later), (asked["text"], asked)]
    assert subjects.figure_elsewhere("Which CVE does Git 2.39.1 fix?", quotes) == ["2.39.1"]
    assert subjects.figure_elsewhere("Which CVE does Git 2.39.2 fix?", quotes) == []



def test_a_figure_is_said_about_the_entry_it_sits_in() -> None:
    # freshdocs tune fd-009: the limit is the second sentence of xsltproc's --param entry
    entry = _chunk("libxslt-xsltproc.html#7", "--param PARAMNAME PARAMVALUE: Pass a parameter of name PARAMNAME and "
                   "value PARAMVALUE to the stylesheet. You may pass multiple name/value pairs up to a maximum of 32.")
    quote = "You may pass multiple name/value pairs up to a maximum of 32"
    question = "What is the maximum number of name/value pairs that can be passed to xsltproc with --param?"
    assert subjects.figure_elsewhere(question, [(quote, entry)]) == []
    other = _chunk("libxslt-xsltproc.html#8", "--maxdepth VALUE: Adjust the maximum depth. The default is 3000.")
    assert "--param" in subjects.figure_elsewhere(question, [("The default is 3000", other)])


def test_the_readme_a_question_names_is_the_wheels_metadata() -> None:
    # hostdocs tune hs-048: "according to the qdrant-client README" asked back, the figure read as not the README's
    page = _chunk("qdrant-client-METADATA.md#9", "You can register and use Qdrant Cloud to get a free tier account "
                                                  "with 1GB RAM.")
    quote = "You can register and use Qdrant Cloud to get a free tier account with 1GB RAM"
    question = "How much RAM does a free tier Qdrant Cloud account get, according to the qdrant-client README?"
    assert subjects.figure_elsewhere(question, [(quote, page)]) == []
    notes = _chunk("qdrant-NOTES.md#9", page["text"])
    assert subjects.figure_elsewhere(question, [(quote, notes)]) == ["README"]


def test_a_wheels_metadata_header_says_what_its_requirements_are_of() -> None:
    # mldocs tune ml-025: "Requires-Dist: protobuf>=6.31.1" under "Name: onnx" / "Version: 1.23.2" is onnx 1.23.2's
    text = ("Metadata-Version: 2.4\nName: onnx\nVersion: 1.23.2\nRequires-Python: >=3.10\n"
            "Requires-Dist: protobuf>=6.31.1")
    quote = "Requires-Dist: protobuf>=6.31.1"
    question = "What minimum protobuf version does onnx 1.23.2 require?"
    assert subjects.figure_elsewhere(question, [(quote, _chunk("onnx-METADATA.md#1", text))]) == []
    # another release than the header's is not held, nor is a header outside a package's metadata
    assert subjects.figure_elsewhere(question.replace("1.23.2", "1.22.0"),
                                     [(quote, _chunk("onnx-METADATA.md#1", text))]) == ["1.22.0"]
    assert subjects.figure_elsewhere(question, [(quote, _chunk("onnx-NOTES.md#1", text))]) == ["1.23.2"]


def test_a_question_names_its_tool_by_a_quoted_documents_name() -> None:
    # stop 76, realdocs tune pk-054 and the like: the words of the question that a quoted document's name holds
    names = ["zstd-CONTRIBUTING.md", "nodejs-GOVERNANCE.md"]
    assert subjects.products("How many approvals does a zstd pull request need before merging?", names) == {"zstd"}
    assert subjects.products("How many approvals does a pull request need?", names) == frozenset()
    # conversations check cv-268#3 names the class: a later word of a name is a topic within the tool, not a tool
    assert subjects.products("Which value does the subprocess get?", ["supervisor-subprocess.rst"]) == frozenset()
    # secdocs tune sc-032: a packaging suffix is no part of the name ("stunnel4-NEWS.md" is stunnel's page)
    assert subjects.products("What is stunnel's default failover strategy?", ["stunnel4-NEWS.md"]) == {"stunnel"}
    assert not subjects.of_another_product(_chunk("stunnel4-NEWS.md#3", "New failover strategy."),
                                           frozenset({"stunnel"}))
    governance = _chunk("nodejs-GOVERNANCE.md#3", "Two collaborators must approve a pull request before the pull "
                        "request can land.")
    contributing = _chunk("zstd-CONTRIBUTING.md#8", "Eventually, someone from the zstd team will approve your pull "
                          "request.")
    assert subjects.of_another_product(governance, frozenset({"zstd"}))
    assert not subjects.of_another_product(contributing, frozenset({"zstd"}))
    # a page that says the tool's name in its text, or no tool asked about, is not another tool's
    mention = _chunk("nodejs-GOVERNANCE.md#4", "Dependencies such as zstd are updated by a collaborator.")
    assert not subjects.of_another_product(mention, frozenset({"zstd"}))
    assert not subjects.of_another_product(governance, frozenset())
    # a word inside another word is not the tool's name ("regex" in "regexes" is, as a word part split by '_' is not)
    assert subjects.of_another_product(_chunk("fonttools-METADATA.rst#11", "unicodedata2 updated to Unicode 18.0"),
                                       frozenset({"regex"}))
