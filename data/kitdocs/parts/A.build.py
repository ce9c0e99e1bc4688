import json, re
from pathlib import Path
F = Path("/work/main/data/kitdocs/files")
P = Path("/work/main/data/kitdocs/parts")
def norm(t): return " ".join(re.sub(r"[`*]", "", t).split())
def ev(doc, start, end=None):
    t = (F/doc).read_text(encoding="utf-8")
    i = t.index(start)
    if end is None:
        j = i + len(start)
    else:
        j = t.index(end, i) + len(end)
    return norm(t[i:j])
G, M, GI, CL, D, I, L = "gmp-NEWS.txt", "mpfr-NEWS.txt", "giflib-NEWS.txt", "commons-cli-RELEASE-NOTES.txt", "xextproto-dpms.txt", "iso-codes-README.md", "libpipeline-NEWS.md"
Q = []
def q(kind, split, question, answers, doc, evidence, note=""):
    Q.append(dict(id=f"kt-{len(Q)+1:03d}", question=question, kind=kind, answers=answers,
                  docs=[doc] if doc else [], evidence=evidence, split=split, note=note))
# GMP
q("factual","tune","In GMP 6.2.0, the functions that detect primality substitute how many of the first Miller-Rabin iterations with the BPSW test?",
  ["24"], G, ev(G,"Functions to detect primality","with the BPSW test."), "Listed under FEATURES of 'Changes between GMP version 6.1.* and 6.2.0'.")
q("factual","check","According to GMP's NEWS for 6.1.0, how much stack is now believed sufficient for any GMP call?",
  ["512 KiB","512 KB","512 kibibytes"], G, ev(G,"Stack usage trimmed;","irrespective of operand size."), "FEATURES of 'Changes between GMP version 6.0.* and 6.1.0'.")
q("chatty","tune","how big can an mpz number get on a 64 bit machine w/ gmp 6? there's some bit limit right",
  ["2^37 bits","2^37"], G, ev(G,"The mpn multiply code now handles operands","2^37 bits on 64-bit hosts.)"), "GMP 6.0.0 NEWS: the mpz code is limited to 2^32 bits on 32-bit hosts and 2^37 bits on 64-bit hosts.")
q("chatty","check","yo whats the gmp function for quickly comparing a rational against a plain integer",
  ["mpq_cmp_z"], G, ev(G,"New public mpq_cmp_z function,","with\n    integers."), "New public function in GMP 6.1.0.")
q("near_miss","tune","When was GMP 6.2.1 released?", [], G, ev(G,"Changes between GMP version 6.2.0 and 6.2.1"),
  "gmp-NEWS.txt lists what changed in 6.2.1 (its top section) but gives no release dates at all; the only years are in the copyright line (1996, 1999-2016, 2018-2020). No other file in kitdocs mentions GMP releases.")
# MPFR
q("factual","tune","What is the nickname of the MPFR 4.2.0 release?", ["fondue savoyarde"], M,
  ev(M,"Changes from versions 4.1.* to version 4.2.0:",'- The "fondue savoyarde" release.'), "Each MPFR release since 2.4.0 has a French dish as its name.")
q("factual","check","Which MPFR version was the \"dinde aux marrons\" release?", ["4.0.0","MPFR 4.0.0"], M,
  ev(M,"Changes from versions 3.1.* to version 4.0.0:",'- The "dinde aux marrons" release.'), "")
q("factual","tune","Since MPFR 4.0.0, what is the minimum precision MPFR_PREC_MIN?", ["1"], M,
  ev(M,"- The minimum precision MPFR_PREC_MIN is now 1,","(ties rounded away from zero)."), "Rounding then follows the errata of IEEE 754-2008 (ties rounded away from zero).")
q("chatty","tune","whats the oldest gmp that mpfr 4 will work with?", ["GMP 5.0+","5.0+","5.0","GMP 5.0"], M,
  ev(M,"- MPFR now depends on GMP 5.0+ instead of 4.1+."), "From 'Changes from versions 3.1.* to version 4.0.0'; before 4.0.0 MPFR needed GMP 4.1+.")
q("near_miss","check","What is the nickname of the MPFR 2.3.0 release?", [], M,
  ev(M,"Changes from versions 2.2.* to version 2.3.0:","(as required by the Filesystem Hierarchy Standard);"),
  "The 2.3.0 section of mpfr-NEWS.txt gives no release name; the named releases start with 2.4.0 (\"andouillette sauce moutarde\"), then 3.0.0 \"boudin aux pommes\", 3.1.0 \"canard à l'orange\", 4.0.0 \"dinde aux marrons\", 4.1.0 \"épinards à la crème\", 4.2.0 \"fondue savoyarde\".")
# giflib
q("factual","tune","Which CVE was assigned to the heap buffer overflow in DGifDecompressLine() that giflib 5.1.5 fixed?",
  ["CVE-2018-11490"], GI, ev(GI,"* Fix SF bug #113: Heap Buffer Overflow-2","CVE-2018-11490."), "SourceForge bug #113, listed under Version 5.1.5.")
q("factual","check","Which three documented symbols replaced GIF_LIB_VERSION in giflib 4.2.0?",
  ["GIFLIB_MAJOR, GIFLIB_MINOR, and GIFLIB_RELEASE"], GI, ev(GI,"* The undocumented GIF_LIB_VERSION symbol","GIFLIB_RELEASE."),
  "A full answer names all three: GIFLIB_MAJOR, GIFLIB_MINOR and GIFLIB_RELEASE.")
q("factual","tune","In giflib 5.0.0, what was the text2gif utility renamed to?", ["gifecho"], GI, ev(GI,"text2gif -> gifecho"),
  "One row of the rename list under 'Utilities' in Version 5.0.0; gifecho is no longer installed since 5.2.0.")
q("chatty","check","the giflib utilities are quiet by default now - which flag makes them print stuff again?", ["-v"], GI,
  ev(GI,"* The -q option of the utilities is replaced","the default is now quiet for all platforms."), "Version 4.2.0, 'Behavior changes': -q was replaced by the opposite -v (verbose).")
q("near_miss","tune","Which CVE did giflib 5.2.0 fix?", [], GI, ev(GI,"* Address SourceForge issue #136: Stack-buffer-overflow in gifcolor.c:84"),
  "The 5.2.0 section lists SourceForge issue #136 (stack-buffer-overflow in gifcolor.c) and SF bug #134 but no CVE id. The only CVE ids in giflib-NEWS.txt are CVE-2018-11490 (5.1.5) and CVE-2005-2974 / CVE-2005-3350 (5.0.0).")
# commons-cli
q("factual","tune","Which Commons CLI issue introduced CommandLine.Builder?", ["CLI-269"], CL, ev(CL,"o CLI-269: Introduce CommandLine.Builder"),
  "New feature of Commons CLI 1.4.")
q("factual","tune","What Java version does Commons CLI 1.4 at least require?", ["Java 5.0","5.0","Java 5"], CL,
  ev(CL,"Commons CLI 1.4 at least requires Java 5.0."), "The question names 1.4: Commons CLI 1.5.0 moved to Java 7 (CLI-294: Update Java from version 5 to 7).")
q("near_miss","check","When was Apache Commons CLI 1.5.0 released?", [], CL, ev(CL,"Apache Commons CLI\nVersion 1.5.0\nRelease Notes"),
  "The release notes name version 1.5.0 and list its changes but carry no release date (nor do the 1.4, 1.3.1, 1.3, 1.2 and 1.1 notes in the same file).")
# DPMS
q("factual","tune","In the X DPMS extension, which power level number is DPMSModeSuspend?", ["2"], D,
  ev(D,"2     DPMSModeSuspend     Blanked, lower power"), "Row of the 'DPMS Extension Power Levels' table: 0 DPMSModeOn, 1 DPMSModeStandby, 2 DPMSModeSuspend, 3 DPMSModeOff.")
q("factual","check","What is the DPMS opcode of the DPMSSelectInput request?", ["8"], D,
  ev(D,"DPMSSelectInput\n     1     CARD8         opcode\n     1     8             DPMS opcode"), "Chapter 4, Encoding.")
q("near_miss","tune","What is the default standby_timeout in the X DPMS extension?", [], D,
  ev(D,"standby_timeout is the amount of time of inactivity before standby mode is\ninvoked."),
  "The DPMS spec says timeouts are in seconds, that zero disables a mode and that successive levels must not decrease, but it gives no default value for standby_timeout (or the other timeouts); the only 'by default' is the EPA Energy Star remark in the overview.")
# iso-codes
q("factual","tune","Which organisation is the official maintenance agency for ISO 639-3, according to the iso-codes README?",
  ["SIL International"], I, ev(I,"The official ISO 639-3 maintenance agency\nis SIL International."), "")
q("factual","check","What was the old gettext domain name of ISO 3166-2 in iso-codes before the rename?", ["iso_3166_2"], I,
  ev(I,"- ISO 3166-2: Renamed from `iso_3166_2` to `iso_3166-2`"), "The new domain is iso_3166-2; the old names stay linked to the new ones.")
q("near_miss","check","Which iso-codes version added ISO 3166-3?", [], I,
  ev(I,"* A new ISO standard has been included, ISO 3166-3.","`iso_3166-3`."),
  "The README's NEWS section says ISO 3166-3 was added (gettext domain iso_3166-3) but names no iso-codes version or date for it; the README carries no version number at all.")
# libpipeline
q("factual","tune","When was libpipeline 1.5.7 released?", ["13 November 2022","2022-11-13","November 13, 2022"], L,
  ev(L,"libpipeline 1.5.7 (13 November 2022)"), "Top entry of libpipeline's NEWS.md.")
q("factual","check","Which environment variable suppresses libpipeline's error message when a subprocess is terminated by a signal?",
  ["PIPELINE_QUIET"], L, ev(L,"This includes a `PIPELINE_QUIET` environment variable","terminated by a\n   signal."), "Added in libpipeline 1.4.0 among the Solaris portability fixes.")
q("near_miss","tune","What's new in libpipeline 1.5.8?", [], L, ev(L,"libpipeline 1.5.7 (13 November 2022)"),
  "libpipeline-NEWS.md stops at 1.5.7 (13 November 2022); there is no 1.5.8 entry. man-db's NEWS in another set mentions libpipeline, but is not in kitdocs.")
assert len(Q) == 27, len(Q)
with open(P/"A.jsonl","w",encoding="utf-8") as f:
    for r in Q: f.write(json.dumps(r, ensure_ascii=False)+"\n")

C = []
def turn(question, standalone, dep, answers, doc, evidence, **kw):
    d = dict(question=question, standalone=standalone, dependent=dep, answers=answers, docs=[doc], evidence=evidence); d.update(kw); return d
def conv(cid, split, turns): C.append(dict(id=cid, corpus="kitdocs", split=split, turns=turns))
t1 = "What is the nickname of the MPFR 4.1.0 release?"
conv("cv-442","tune",[
 turn(t1,t1,False,["épinards à la crème","epinards a la creme"],M, ev(M,"Changes from versions 4.0.* to version 4.1.0:",'- The "épinards à la crème" release.')),
 turn("which configure option did it add for formally proven code?","Which configure option did MPFR 4.1.0 add to use formally proven code?",True,
      ["--enable-formally-proven-code"],M, ev(M,"- New --enable-formally-proven-code configure option,","formally proven code.")),
 turn("and what did it replace --enable-mini-gmp with?","Which configure option replaced --enable-mini-gmp in MPFR 4.1.0?",True,
      ["--with-mini-gmp"],M, ev(M,"- Mini-gmp support: replaced --enable-mini-gmp configure option by","read doc/mini-gmp).")),
])
t1 = "In giflib 5.0, what was the icon2gif utility renamed to?"
conv("cv-443","check",[
 turn(t1,t1,False,["gifbuild"],GI, ev(GI,"icon2gif -> gifbuild")),
 turn("and raw2gif?","In giflib 5.0, what was the raw2gif utility renamed to?",True,["gif2raw"],GI, ev(GI,"raw2gif  -> gif2raw")),
 turn("what does that one do now if you leave out the size option?","In giflib 5.0, what does gif2raw do if the size option is missing?",True,
      ["dumps raw pixels from a GIF","dumps raw pixels"],GI, ev(GI,"* To go with its new name, gif2raw now dumps raw pixels","size option is missing.")),
])
t1 = "In the X DPMS extension, which request forces a specific DPMS level on the server?"
conv("cv-444","tune",[
 turn(t1,t1,False,["DPMSForceLevel"],D, ev(D,"DPMSForceLevel\n\npower_level: CARD16\n=>\n\nThis request forces a specific DPMS level on the server.")),
 turn("what's its opcode?","What is the DPMS opcode of the DPMSForceLevel request?",True,["6"],D,
      ev(D,"DPMSForceLevel\n     1     CARD8         opcode\n     1     6             DPMS opcode")),
 turn("and what error comes back if DPMS is disabled when I send it?","Which error does DPMSForceLevel generate if DPMS is disabled?",True,
      ["BadMatch"],D, ev(D,"If DPMS is disabled, a\nBadMatch error is generated.")),
])
t1 = "According to the iso-codes README, which body is the official maintenance agency for ISO 4217?"
t3 = "Which libpipeline release added pipeline_get_pid?"
conv("cv-445","check",[
 turn(t1,t1,False,["Swiss Association for Standardization"],I, ev(I,"The official ISO 4217\nmaintenance agency is the Swiss Association for Standardization.")),
 turn("and its gettext domain?","What is the gettext domain of ISO 4217 in iso-codes?",True,["iso_4217"],I, ev(I,'The gettext domain is "iso_4217".')),
 turn(t3,t3,False,["1.2.0","libpipeline 1.2.0"],L, ev(L,"libpipeline 1.2.0 (18 March 2011)","started\n   pipeline.")),
])
t1 = "In Commons CLI 1.3, what replaces the deprecated OptionBuilder?"
conv("cv-446","tune",[
 turn(t1,t1,False,["Option.builder()","org.apache.commons.cli.Option.builder()","Option.Builder"],CL,
      ev(CL,"o org.apache.commons.cli.OptionBuilder","org.apache.commons.cli.Option.Builder")),
 turn("which jira issue was that?","Which Commons CLI issue added the fluent Option.Builder API that replaces OptionBuilder?",True,["CLI-224"],CL,
      ev(CL,"o CLI-224: Added new fluent API","Thanks to Duncan Jones, Brian Blount.")),
 turn("who got thanked for it?","Who is thanked for CLI-224, the Option.Builder API in Commons CLI 1.3?",True,["Duncan Jones, Brian Blount","Duncan Jones and Brian Blount"],CL,
      ev(CL,"o CLI-224: Added new fluent API","Thanks to Duncan Jones, Brian Blount."), note="A full answer names both Duncan Jones and Brian Blount."),
])
t1 = "Which new C++ functions for mpz_class came with GMP 6.2.0?"
conv("cv-447","check",[
 turn(t1,t1,False,["factorial, primorial and fibonacci"],G, ev(G,"* New C++ functions factorial, primorial and fibonacci for mpz_class."), note="A full answer names all three."),
 turn("and which new mini-gmp functions were in that release?","Which new Mini-GMP functions were added in GMP 6.2.0?",True,["mpz_2fac_ui and mpz_mfac_uiui"],G,
      ev(G,"* Mini-GMP: new functions mpz_2fac_ui and mpz_mfac_uiui."), note="Both names make a full answer; mpz_2fac_ui came to full GMP already in 5.1.0."),
 turn("did it add anything for pkg-config?","Which files did GMP 6.2.0 add for use with pkg-config?",True,["gmp.pc and gmpxx.pc"],G,
      ev(G,"* New installed files gmp.pc and gmpxx.pc, for use with pkg-config.")),
])
with open(P/"A.conversations.jsonl","w",encoding="utf-8") as f:
    for r in C: f.write(json.dumps(r, ensure_ascii=False)+"\n")
print("written", len(Q), len(C))
