"""A default asked for must be said of what the question asks the default of: real cases from the tune splits."""

from __future__ import annotations

import pytest

from masis.judge import grounding
from masis.judge.defaults import asked_of, default_elsewhere
from masis.state import EvidenceChunk


def _chunk(doc: str, number: int = 1, text: str = "", section: str | None = None) -> EvidenceChunk:
    return {"chunk_id": f"{doc}#{number}", "doc_name": doc, "text": text, "page": None, "section": section,
            "relevance": 1.0, "score": 1.0}


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What is the default delay of setInterval in Node.js?", ["delay"]),
        ("What is the default location of the blkid cache file?", ["location"]),
        ("What is DHAT's default output file name?", ["output", "file", "name"]),
        # a generic word leads to the setting
        ("What is the default value of DRD's --join-list-vol option?", ["drd", "--join-list-vol"]),
        ("What is the default of Callgrind's --separate-recs option?", ["callgrind", "--separate-recs"]),
        # "… by default": what the question asks which or what of, or what it asks about
        ("Which hierarchies does systemd-sysext manage by default, before $SYSTEMD_SYSEXT_HIERARCHIES changes the "
         "list?", ["hierarchies"]),
        ("Where is pip's cache stored by default on Linux?", ["pip", "cache", "stored"]),
        ("What does Memcheck's --keep-stacktraces default to?", ["memcheck", "--keep-stacktraces"]),
        ("How long does systemd wait by default for a disk image to be configured?", ["systemd", "wait"]),
        # what the question leaves out is what it asks the default of
        ("How many daily archives does borg prune keep when --keep-daily is not given?", ["--keep-daily"]),
        ("Which encoding does new StringDecoder() use when no encoding argument is given?", ["encoding"]),
        # no default asked, or a flag's part
        ("Where is pip's cache stored on Linux?", []),
        ("What does --default-timeout set?", []),
        # a participle before its agent ends the phrase (kitdocs tune kt-057)
        ("In lz4's benchmark mode, what is the default minimum evaluation time set by -i#?",
         ["minimum", "evaluation", "time"]),
        ("What is the default character set?", ["character", "set"]),
    ],
)
def test_what_the_default_is_asked_of(question: str, named: list[str]) -> None:
    assert asked_of(question) == named


def test_a_default_said_of_another_thing_is_not_the_one_asked_for() -> None:
    # realdocs tune rd-152: answered at 0.72 with what the event loop does by default
    timers = _chunk("nodejs-timers.md", 7)
    question = "What is the default delay of setInterval in Node.js?"
    loop = ("By default, when a timer is scheduled using either setTimeout() or setInterval(), the Node.js event loop "
            "will continue running as long as the timer is active.")
    assert default_elsewhere(question, [(loop, timers)]) == "delay"
    assert default_elsewhere(question, [("The delay defaults to 1 millisecond.", timers)]) is None


def test_an_identifier_asked_is_said_as_written_not_by_its_words() -> None:
    # kitdocs tune kt-032 (answered, wrong, at 0.76): the config file's default shares "region" with the setting's name
    question = "What is the default value of the AWS CLI's sts_regional_endpoints setting?"
    doc, entry_passage = _chunk("awscli-config-vars.rst", 2), _chunk("awscli-config-vars.rst", 28)
    entry = ("To set STS endpoint resolution logic, use the AWS_STS_REGIONAL_ENDPOINTS environment variable or "
             "sts_regional_endpoints configuration file option.")
    config = ("The AWS CLI config file, which defaults to ~/.aws/config has the following format: [default] "
              "aws_access_key_id=foo region=us-west-2.")
    assert default_elsewhere(question, [(entry, entry_passage), (config, doc)]) == "aws cli sts_regional_endpoints"
    said = "The sts_regional_endpoints option defaults to ``legacy``."
    assert default_elsewhere(question, [(entry, entry_passage), (said, entry_passage)]) is None
    # kitdocs tune thread cv-458#3: ldap.conf(5)'s entry, its term over its text, the name broken at a line's end
    ldap = _chunk("ldap.conf.5.txt", 13, text="SASL_CBINDING <none/tls-unique/tls-endpoint>\nThe channel-binding type "
                  "to use, see also LDAP_OPT_X_SASL_CBIND‐ ING. The default is none.")
    assert default_elsewhere("What does SASL_CBINDING default to in ldap.conf?",
                             [("The default is none.", ldap)]) is None
    # an option's section heading names it (a Markdown "## --jobs" over its text)
    jobs = _chunk("cells.md", 3, text="How many jobs run in parallel. If not specified, the default is 16 jobs.",
                  section="--jobs")
    assert default_elsewhere("What is the default of --jobs?",
                             [("If not specified, the default is 16 jobs.", jobs)]) is None


def test_another_entrys_default_in_the_same_passage() -> None:
    # configdocs tune cd-004: systemd-sysext's entry quoted, then the next variable's "By default"
    entry = _chunk("systemd-ENVIRONMENT.md", 19, section="systemd-sysext")
    question = ("Which hierarchies does systemd-sysext manage by default, before $SYSTEMD_SYSEXT_HIERARCHIES changes "
                "the list?")
    quotes = [
        ("$SYSTEMD_SYSEXT_HIERARCHIES — this variable may be used to override which hierarchies are managed by "
         "systemd-sysext.", entry),
        ("By default non-UTF-8 locales are suppressed from the selection.", entry),
    ]
    assert default_elsewhere(question, quotes) == "hierarchies"


def test_a_line_that_is_only_the_default_is_read_with_its_entry() -> None:
    # realdocs tune rd-097 and fd-005: "Default is 2024" under "Specify the Rust edition to use"
    page = _chunk("cargo-new.html", 5)
    quotes = [("Specify the Rust edition to use.", page), ("Default is 2024.", page)]
    assert default_elsewhere("Which Rust edition does cargo new use by default?", quotes) is None
    # the quote before it in its passage, when it was not quoted
    entry = "--maxvars VALUE: Maximum number of variables. The default is 15000."
    xslt = _chunk("libxslt-xsltproc.html", 4, text=entry)
    assert default_elsewhere("What is the default value of xsltproc --maxvars?",
                             [("The default is 15000.", xslt)]) is None
    # and its section heading ("Default: 10" under logs-max)
    config = _chunk("npm-config.md", 96, section="logs-max")
    assert default_elsewhere("How many log files does npm keep by default (logs-max)?",
                             [("Default: 10.", config)]) is None


def test_a_quote_before_is_its_owner_only_when_nothing_stands_between_them() -> None:
    # hostdocs conversations tune cv-369#2 (SYS_NAME_REGEX's standalone form, answered "Defaults to yes" at 1.0): the
    # entry's key quoted first does not own a default line of another entry further down the passage
    text = ("SYS_NAME_REGEX System user- and groupnames are checked against this regular expression. Defaults to "
            "the most conservative ^[a-z_][-a-z0-9_]*$.\n\nUSE_EXTRAUSERS Use the extrausers tables. Defaults to yes.")
    conf = _chunk("adduser-adduser.conf.5.txt", 7, text=text)
    quotes = [("SYS_NAME_REGEX System user- and groupnames are checked against this regular expression.", conf),
              ("Defaults to yes.", conf)]
    assert default_elsewhere("What is the default SYS_NAME_REGEX in adduser.conf?", quotes) is not None
    # the entry's own default line after its key's sentence is its own
    own = [quotes[0], ("Defaults to the most conservative ^[a-z_][-a-z0-9_]*$.", conf)]
    assert default_elsewhere("What is the default SYS_NAME_REGEX in adduser.conf?", own) is None
    # and so is one after a sentence of the same entry that says no default (realdocs tune rd-006)
    agent = _chunk("nodejs-http.md", 8, text=(
        "maxFreeSockets {number} Maximum number of sockets per host to leave open in a free state. Only relevant if "
        "keepAlive is set to true. Default: 256. scheduling {string} Scheduling strategy to apply."))
    sockets = [("maxFreeSockets {number} Maximum number of sockets per host to leave open in a free state.", agent),
               ("Default: 256.", agent)]
    assert default_elsewhere("What is the default maxFreeSockets of an http.Agent?", sockets) is None


def test_a_lists_next_item_opens_another_entry() -> None:
    # coredocs tune cr-080: sources.list(5)'s Check-Date has no default; "Default to … Acquire::Max-FutureTime" is the
    # next item's, Date-Max-Future, which shares "date" with the key asked about
    text = ("• Check-Date (check-date) is a yes/no value which controls if APT should consider the machine's time "
            "correct. Disabling it also disables the Check-Valid-Until option mentioned above.\n• Date-Max-Future "
            "(date-max-future) controls how far from the future a repository may be. Default to the value of the "
            "configuration option Acquire::Max-FutureTime which is 10 seconds by default.")
    page = _chunk("apt-sources.list.5.txt", 21, text=text)
    quotes = [("• Check-Date (check-date) is a yes/no value which controls if APT should consider the machine's time "
               "correct.", page),
              ("Default to the value of the configuration option Acquire::Max-FutureTime which is 10 seconds by "
               "default.", page)]
    question = "What is the default of the Check-Date option in a sources.list entry?"
    assert default_elsewhere(question, quotes) == "check-date"
    # the item's own default, in the same words, is its own
    own = _chunk("apt-sources.list.5.txt", 21, text="• Check-Date (check-date) is a yes/no value. Default to the "
                 "value of the configuration option Acquire::Check-Date which is true by default.")
    said = [("• Check-Date (check-date) is a yes/no value.", own),
            ("Default to the value of the configuration option Acquire::Check-Date which is true by default.", own)]
    assert default_elsewhere(question, said) is None


def test_a_line_that_names_its_default_is_read_alone() -> None:
    # mandocs tune md2-114: after "--limit-rate=20k will limit …", the read timeout's default is still not the rate's
    wget = _chunk("wget.1.txt", 31)
    quotes = [("For example, --limit-rate=20k will limit the retrieval rate to 20KB/s.", wget),
              ("The default read timeout is 900 seconds.", wget), ("--limit-rate=amount", wget)]
    assert default_elsewhere("What is wget's default --limit-rate?", quotes) == "--limit-rate"
    # "the default value, if not specified, is 16" names nothing: it is read with its entry (realdocs tune rd-158)
    rustc = _chunk("rustc-codegen-options.html", 5, section="codegen-units")
    line = "The default value, if not specified, is 16 for non-incremental builds."
    assert default_elsewhere("What is the default codegen-units value for incremental builds in Cargo?",
                             [(line, rustc)]) is None


def test_the_thing_a_default_is_asked_of_is_named_by_its_last_word() -> None:
    # mldocs tune ml-089, a near miss answered: "-x … Output XML (default)" shares "output" with "the default output
    # width", and h5dump's page gives -w no default
    h5dump = _chunk("h5dump.1.txt", 6)
    quotes = [("-w N or --width=N Set the number of columns of output", h5dump),
              ("-x or --xml Output XML using XML schema (default) instead of DDL", h5dump)]
    assert default_elsewhere("What is h5dump's default output width for -w?", quotes) == "output width"
    said = [("-w N or --width=N Set the width of output, in columns (default 80).", h5dump)]
    assert default_elsewhere("What is h5dump's default output width for -w?", said) is None
    # an identifier says its words (holdoutdocs check hd-052), and "argument" names no thing (apidocs tune ad-024)
    expat = _chunk("expat-reference.html", 107)
    setter = ("XML_SetBillionLaughsAttackProtectionActivationThreshold(XML_Parser p, unsigned long long bytes); Sets "
              "the number of output bytes needed to activate protection (default: 8 MiB)")
    assert default_elsewhere("What's the default activation threshold for Expat's billion laughs protection?",
                             [(setter, expat)]) is None
    agent = _chunk("nodejs-http.md", 12)
    assert default_elsewhere("What is the default maxFreeSockets of an http.Agent?",
                             [("maxFreeSockets <number> Default: 256.", agent)]) is None  # realdocs tune rd-006
    defused = _chunk("defusedxml-METADATA.rst", 19)
    line = "forbid_dtd (default: False) disallow XML with a <!DOCTYPE> processing instruction"
    assert default_elsewhere("What is the default of defusedxml's forbid_dtd argument?", [(line, defused)]) is None
    # words before "by default" are what is asked which or what of, any of them may be said
    config = _chunk("npm-config.md", 96, section="logs-max")
    assert default_elsewhere("How many log files does npm keep by default?", [("Default: 10.", config)]) is None


def test_an_identifier_after_default_is_the_thing_whatever_noun_follows_it() -> None:
    # frontdocs tune fe-076: "the default indent_level format option" asks of indent_level, not of a "format"
    terser = _chunk("terser-README.html", 55)
    line = "indent_level (default 4) indent_start (default 0) -- prefix all lines by that many spaces"
    assert default_elsewhere("What is terser's default indent_level format option?", [(line, terser)]) is None
    assert default_elsewhere("What is terser's default indent_start format option?",
                             [("comments (default false) -- pass true to keep all comments", terser)]) == \
        "indent_start format"
    # a product's dotted name is no setting's identifier (mandocs tune md2-153, a near miss)
    readline = _chunk("nodejs-readline.md", 3)
    assert default_elsewhere(
        "What is the default maximum line length a Node.js readline interface accepts before it errors?",
        [("The default Node.js history size is 30.", readline)]) is not None


def test_a_sentence_that_gives_a_generic_words_default_is_read_with_the_sentence_before() -> None:
    # frontdocs tune fe-036: "The option defaults to false" is the option the sentence before it adds, even with the
    # pull request's remark after it
    axios = _chunk("axios-CHANGELOG.md", 3, section="New Features", text=(
        "UTF-8 Basic Authentication: Added transitional.encodeBasicAuthUsername: true to support Unicode usernames.\n"
        "The option defaults to false, preserving existing authentication behavior. (#11159)"))
    question = "What does axios's transitional.encodeBasicAuthUsername option default to?"
    quote = "The option defaults to false, preserving existing authentication behavior. (#11159)"
    assert default_elsewhere(question, [(quote, axios)]) is None
    other = _chunk("axios-CHANGELOG.md", 4, text="Added fetchOptions.\nThe option defaults to {}, as before.")
    assert default_elsewhere(question, [("The option defaults to {}, as before.", other)]) is not None


def test_quotes_that_never_say_default_are_left_to_the_other_rules() -> None:
    websocket = _chunk("openai-responses-websocket-README.md")
    assert default_elsewhere("What is the default of isolate_lane_overflow?",
                             [("Pass isolate_lane_overflow=True to either session constructor.", websocket)]) is None


def test_the_floor_names_the_setting_in_the_critique() -> None:
    timers = _chunk("nodejs-timers.md", 7, text="By default, the event loop will continue running.")
    answer = "By default, the event loop will continue running [nodejs-timers.md#7]."
    floors = grounding.check("What is the default delay of setInterval in Node.js?", answer, [timers])
    assert floors.default_elsewhere == "delay"


def test_a_default_thing_of_its_own_says_no_default_of_the_setting_asked() -> None:
    # extradocs tune xd-125, a near miss answered: "the default network" is a network that is the default one; the
    # page gives the key's lifetime a flag and no default
    ssh = _chunk("gcloud_compute_ssh.1.txt", 2)
    firewall = ("If the default network was edited, or if not using the default network, you may need to explicitly "
                "enable ssh access by adding a firewall-rule.")
    question = "How long is an SSH key valid by default when gcloud compute ssh creates it?"
    assert default_elsewhere(question, [(firewall, ssh)]) is not None
    # the noun after "default" is the thing asked about, or a generic one: the default is the asked setting's
    assert default_elsewhere("What is the default port of PgBouncer?",
                             [("The default port is 6432.", _chunk("pgbouncer.ini", 3))]) is None
    curl = _chunk("curl.1.txt", 9)
    assert default_elsewhere("What is the default timeout of curl's --connect-timeout?",
                             [("--connect-timeout: the default value is 300 seconds.", curl)]) is None


def test_what_a_question_leaves_out_is_what_the_quoted_default_must_be_of() -> None:
    # servicedocs tune sv-106, a near miss answered: borg's example passes --keep-daily=7; the page's one "default"
    # is prune's, which "The default of prune …" names, so it is not read with the example before it
    prune = _chunk("borgbackup-prune.html", 8)
    quotes = [("$ borg prune -v --list --dry-run --keep-daily=7 --keep-weekly=4 /path/to/repo", prune),
              ("The default of prune is to apply to all archives in the repository.", prune)]
    question = "How many daily archives does borg prune keep when --keep-daily is not given?"
    assert default_elsewhere(question, quotes) == "--keep-daily"
    said = [("--keep-daily: number of daily archives to keep; the default is 0 when --keep-daily is not given.", prune)]
    assert default_elsewhere(question, said) is None


def test_a_default_said_of_the_asked_thing_is_kept_beside_default_things_of_their_own() -> None:
    # realdocs tune rd-083: Ninja's status format is named right after "default" in the question's own words; the
    # manual's "default targets" beside it are no other setting's default
    ninja = _chunk("ninja-manual.html", 13)
    quotes = [('The default progress status is "[%f/%t] " (note the trailing space).', ninja),
              ("Default target statements begin with the default keyword.", _chunk("ninja-manual.html", 33))]
    assert default_elsewhere("What is Ninja's default progress status format?", quotes) is None
    # configdocs tune cd-049: "by default" says how stacks are, it names no default thing of its own
    dhat = _chunk("valgrind-dh-manual.html", 42)
    quotes = [("Note that stacks by default have 12 frames.", dhat),
              ("--mode=<heap|copy|ad-hoc> [default: heap]: The profiling mode.", dhat)]
    assert default_elsewhere("how many stack frames does dhat keep per stack by default?", quotes) is None


def test_a_setting_written_in_camel_case_is_the_thing_asked_of() -> None:
    # secdocs tune sc-009, a near miss answered at 0.85: sshd_config gives RevokedKeys no default, and "The default is
    # /run/sshd.pid" under PidFile's "Specifies the file …" shares "file" with "the default RevokedKeys file"
    page = _chunk("openssh-sshd_config.5.txt", 55,
                  text="PidFile Specifies the file that contains the process ID of the SSH daemon, or none to not "
                       "write one. The default is /run/sshd.pid.")
    question = "What is the default RevokedKeys file of sshd?"
    quotes = [("PidFile Specifies the file that contains the process ID of the SSH daemon, or none to not write one.",
               page), ("The default is /run/sshd.pid.", page)]
    assert default_elsewhere(question, quotes) == "revokedkeys file"
    # its own entry's default is its own
    own = _chunk("openssh-sshd_config.5.txt", 60, text="RevokedKeys Specifies revoked public keys file. The default "
                                                       "is none.")
    assert default_elsewhere(question, [("RevokedKeys Specifies revoked public keys file.", own),
                                        ("The default is none.", own)]) is None


def test_a_scoped_key_is_said_whole_not_inside_a_longer_key() -> None:
    # unattended-upgrades' README lists its options as `Unattended-Upgrade::Name - type (default:…)`: the default of
    # Package-Whitelist-Strict is not Package-Blacklist's (the class of opsdocs check od-018, found reading the check
    # split's wrong answers; tune od-001's own key still passes)
    readme = _chunk("unattended-upgrades-README.md", 7)
    strict = "Unattended-Upgrade::Package-Whitelist-Strict - boolean (default:False)"
    question = "What is the default Unattended-Upgrade::Package-Blacklist?"
    assert asked_of(question) == ["unattended-upgrade::package-blacklist"]
    assert default_elsewhere(question, [(strict, readme)]) == "unattended-upgrade::package-blacklist"
    minimal = "Unattended-Upgrade::MinimalSteps - boolean (default:True)"
    assert default_elsewhere("What is the default of Unattended-Upgrade::MinimalSteps?", [(minimal, readme)]) is None


def test_a_scoped_key_is_said_by_its_last_part_as_a_group_lists_it() -> None:
    # sysdocs tune sy-095 (its first run): apt.conf(5) lists the Acquire group's settings by their own names
    page = _chunk("apt-apt.conf.5.txt", 30, "MaxReleaseFileSize The maximum file size of Release/Release.gpg/InRelease "
                  "files. The default is 10MB. Acquire::Languages { \"environment\"; \"de\"; };")
    quotes = [("MaxReleaseFileSize The maximum file size of Release/Release.gpg/InRelease files.", page),
              ("The default is 10MB.", page)]
    assert default_elsewhere("What is the default Acquire::MaxReleaseFileSize in apt.conf?", quotes) is None
    # another setting's line is still not the asked one's, nor a longer key that starts with its last part
    other = [("Retries Number of retries to perform. The default is 3.", page)]
    assert default_elsewhere("What is the default Acquire::MaxReleaseFileSize in apt.conf?", other) is not None
    longer = [("MaxReleaseFileSize-Extra The maximum extra size. The default is 5MB.", page)]
    assert default_elsewhere("What is the default Acquire::MaxReleaseFileSize in apt.conf?", longer) is not None


def test_a_default_in_a_run_of_entries_is_the_entry_before_it() -> None:
    # ALSA's dmix reference quoted as one run of `key TYPE # text` entries: "(default 0600)" ends ipc_perm's entry,
    # not ipc_key's, which has none (the class of holdoutdocs check hd-065, found reading the check split's wrong
    # answers: issue 22's "the default is read from the neighbouring entry")
    page = _chunk("alsa-pcm-plugins.html", 12)
    run = ("slave STR # Slave name (see pcm_slave) ipc_key INT # Unique ipc key ipc_perm INT # ipc permissions "
           "(default 0600)")
    question = "What is the default ipc_key of the ALSA dmix plugin?"
    assert default_elsewhere(question, [(run, page)]) == "ipc_key"
    # the entry's own default, even with another entry's after it
    own = "ipc_key INT # Unique ipc key (default 5) ipc_perm INT # ipc permissions (default 0600)"
    assert default_elsewhere(question, [(own, page)]) is None
    # an option asked in plain words is the option of that name: oathtool's --digits has no default, -s has one
    # (secdocs check sc-030, found the same way)
    options = ("-d, --digits=DIGITS number of digits in one-time password -s, --time-step-size=DURATION TOTP "
               "time-step duration (default=`30s')")
    assert default_elsewhere("How many digits does an oathtool one-time password have by default?",
                             [(options, _chunk("oathtool.1.txt", 3))]) is not None
    # the words asked with may be the key together ("time-step size", tune sc-027), whatever other entry one of them
    # names ("--totp")
    totp = ("--totp[=MODE] use time-variant TOTP mode (values \"SHA1\", \"SHA256\", or \"SHA512\") -s, "
            "--time-step-size=DURATION TOTP time-step duration (default=`30s')")
    assert default_elsewhere("What is oathtool's default TOTP time-step size?",
                             [(totp, _chunk("oathtool.1.txt", 3))]) is None
    # a default said before any entry's key is not placed by this rule
    assert default_elsewhere(question, [("By default ipc_key is 5 and ipc_perm is 0600", page)]) is None


def test_a_default_thing_between_an_entry_and_its_default_line_is_no_other_default() -> None:
    # pkgdocs tune pk-089 (a right draft asked back): "The default unit is seconds" sits between the entry and its
    # "Defaults to 5 seconds." and was read as the entry's one default
    text = ("RootDistanceMaxSec= Maximum acceptable root distance. If the current server does not satisfy this "
            "limit, systemd-timesyncd will switch to a different server.\nTakes a time span value. The default unit is "
            "seconds, but other units may be specified, see systemd.time(5). Defaults to 5 seconds.")
    page = _chunk("systemd-timesyncd.conf.5.txt", 5, text)
    question = "What does RootDistanceMaxSec= default to in timesyncd.conf?"
    quotes = [("RootDistanceMaxSec= Maximum acceptable root distance.", page), ("Defaults to 5 seconds.", page)]
    assert default_elsewhere(question, quotes) is None
    # a default said between them is still another entry's
    other = text.replace("The default unit is seconds", "The default is 3 seconds")
    page = _chunk("systemd-timesyncd.conf.5.txt", 5, other)
    quotes = [("RootDistanceMaxSec= Maximum acceptable root distance.", page), ("Defaults to 5 seconds.", page)]
    assert default_elsewhere(question, quotes) == "rootdistancemaxsec"


def test_a_default_thing_named_by_its_head_noun_is_the_one_asked() -> None:
    # freshdocs tune fd-002: "the default output file" is the file asked of
    manual = _chunk("valgrind-cl-manual.html", 33)
    quote = ("--callgrind-out-file=<file>: Write the profile data to file rather than to the default output file, "
             "callgrind.out.<pid>")
    question = "What file does Callgrind write its profile data to by default?"
    assert default_elsewhere(question, [(quote, manual)]) is None
    assert default_elsewhere("What directory does Callgrind write its profile data to by default?",
                             [(quote, manual)]) == "directory"


def test_which_option_is_on_by_default_asks_the_options_own_default() -> None:
    # mandocs tune md2-097: the tool's name was taken for what the default is of
    assert asked_of("Which apt-get option is on by default and erases obsolete files in /var/lib/apt/lists?") == []
    assert asked_of("Which hierarchies does systemd-sysext manage by default?") == ["hierarchies"]


def test_a_short_form_in_brackets_names_it_too() -> None:
    # mandocs tune md2-069: the quote says "lmml", the question "ldmMinMatch (lmml)"
    assert asked_of("In zstd's advanced compression options, what is the default of ldmMinMatch (lmml)?") == [
        "ldmminmatch", "lmml"]
    # and an option's mode is its value: the option is what the default is of (tooldocs tune tl-039)
    assert asked_of("What is the default mode of ctest's --test-output-truncation?") == [
        "ctest", "--test-output-truncation"]


def test_what_value_a_tool_uses_for_a_setting_by_default_asks_that_settings_default() -> None:
    # yarddocs tune yd-079: "AllowHybridSleep= By default any power-saving mode is advertised …" was taken for
    # SuspendMode='s default (answered at 0.85; the page gives none)
    question = "What value does systemd-sleep.conf use for SuspendMode= by default?"
    sleep = _chunk("systemd-systemd-sleep.conf.5.txt", 6)
    assert default_elsewhere(question, [
        ("AllowHybridSleep= By default any power-saving mode is advertised if possible", sleep),
        ("SuspendMode=, HibernateMode=, HybridSleepMode= The string to be written to /sys/power/disk", sleep),
    ]) == "suspendmode"
    assert default_elsewhere(question, [("SuspendMode= defaults to suspend.", sleep)]) is None
    # an entry's body that says it without a key may be the setting's own (mandocs check md2-109)
    wget = _chunk("wget.1.txt", 35)
    assert default_elsewhere("What value does wget assume for --waitretry by default?", [
        ("By default, Wget will assume a value of 10 seconds.", wget), ("--waitretry=seconds", wget)]) is None
