"""Opposites beyond ordinals and extremes: attitudes, permissions, the usual and its exception, qualities."""

from __future__ import annotations

from masis.judge import contrast


def test_an_attitude_or_a_permission_turned_around_is_a_contrast() -> None:
    assert contrast.contradicted("What aspect of Western medicine did the Chinese like?",
                                 ["Chinese physicians opposed Western medicine because its humoral system "
                                  "contradicted the yin-yang philosophy."]) == [("like", "opposed")]
    assert contrast.contradicted("Which file types are allowed as attachments?",
                                 ["Executable file types are prohibited as attachments."]) == [
        ("allowed", "prohibited")]
    assert contrast.contradicted("What did release 2.4.0 add?", ["Release 2.4.0 removed the legacy exporter."])
    assert not contrast.contradicted("Which file types are allowed?", ["PDF and PNG files are allowed."])


def test_the_usual_and_its_exception_are_a_contrast() -> None:
    assert contrast.contradicted("How are packets irregularly forwarded?",
                                 ["Packets are normally forwarded by intermediate network nodes asynchronously."])
    assert contrast.contradicted("What happens on an abnormal shutdown?",
                                 ["On a normal shutdown the daemon flushes its queue."])


def test_a_quality_swapped_for_its_opposite_is_a_contrast() -> None:
    assert contrast.contradicted("What is the low watermark?", ["The high watermark is 80 % of the disk."])
    assert contrast.contradicted("How many women served on the council?", ["Twelve men served on the council."])
    assert contrast.contradicted("Which port is closed by default?", ["Port 443 is open by default."])
    assert not contrast.contradicted("Which port is open by default?", ["Port 443 is open by default."])


def test_a_wait_before_something_is_the_time_after_which_it_happens() -> None:
    # secdocs tune sc-005 and hostdocs hs-018: right drafts asked back for "after" where the question says "before"
    sshd = "How long does sshd wait for a user to log in before disconnecting (LoginGraceTime default)?"
    said = "The server disconnects after this time if the user has not successfully logged in"
    assert contrast.contradicted(sshd, [said]) == []
    lsof = "how long does lsof wait per filesystem before it complains?"
    said = "Lsof announces it is blocked only after a default waiting period of fifteen seconds has expired"
    assert contrast.contradicted(lsof, [said]) == []
    # a moment before something is not one after it
    war = contrast.contradicted("What happened before the war?", ["After the war, the city grew"])
    assert war == [("before", "after")]


def test_what_a_thing_did_previously_is_not_what_it_does_now() -> None:
    # platformdocs tune pf-032: dnsmasq's changelog gives the old default ports for "what … pick from now"
    question = "if we dont set min-port/max-port what source port range does dnsmasq pick from now"
    said = "Previously, without min-port or max-port configured, dnsmasq would default to 1024 and 65535"
    assert contrast.contradicted(question, [said]) == [("now", "previously")]
    # a quote that says both is about now too
    assert contrast.contradicted("What is the city now called?",
                                 ["The city, previously known as Bombay, is now called Mumbai"]) == []
    # "formerly" is said "once the case" as often (open-book SQuAD, Pharmacy)
    assert contrast.contradicted("What responsibilities were pharmacy technicians formerly limited to?",
                                 ["Where it was once the case that pharmacists stayed within the dispensary, "
                                  "pharmacists now spend more time with patients"]) == []
