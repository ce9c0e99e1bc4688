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
