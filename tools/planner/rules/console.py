"""Rule: the serial console on the kernel command line, one entry per device.

A clause about a console (it names ``console``, ``serial``, a baud rate, or a device
such as ttyS1, ttyAMA0, hvc0) is read for its slots: the device it wants, the device it
replaces ("from ttyS0", "instead of ttyS0", "replace the ttyS0 console"), the speed
("at 115200", "9600 baud", "same speed", "keep 115200") and whether it adds a console
("add", "also", "another") or sets the one there is ("should be", "move", "put").

``console=`` is one option per device: a device already on the command line gets the
new speed in place; a replaced device's entry becomes the new one; "the serial console
should be ttyS1" moves the only serial console there is; a speed on its own ("the SOL
port is 115200") changes the last serial console. Nothing is appended next to an entry
for the same device.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oic_ai.tools.planner.clauses import Clause, split_clauses
from oic_ai.tools.planner.rules.kernel_params import FLAGS
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import GOES_AWAY, TAKE_OUT

_DEVICE = re.compile(
    r"\b(?:tty(?:S|AMA|USB|ACM|mxc|THS|PS|SAC|LP|O|MFD|HS|AML|SIF)\d+|hvc\d+)\b", re.I
)
_BAUDS = {1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1500000}
_SPEED = re.compile(r"\b(?P<speed>\d{3,7})(?:\s*(?:baud|bps|bit/s))?\b", re.I)
_CUE = re.compile(r"\b(?:console|serial|baud|bps|uart|sol|serial-over-lan)\b", re.I)
_SOURCE_BEFORE = re.compile(
    r"(?:\bfrom|\binstead\s+of|\brather\s+than|\breplace(?:s|d)?\s+(?:the\s+)?|\bnot)\s*$", re.I
)
_ADDING = re.compile(r"\b(?:add|adding|also|another|second|additional|extra|as\s+well|too)\b", re.I)
_SAME_SPEED = re.compile(
    r"\b(?:same|keep(?:ing)?\s+(?:the\s+)?(?:same\s+)?)\s*(?:speed|baud(?:\s*rate)?|rate)\b"
    r"|\bkeep(?:ing)?\s+(?:it\s+at\s+)?\d{3,7}\b",
    re.I,
)
_VIRTUAL = re.compile(r"^tty\d+$")
# a device said without its "tty" after a console one: "ttyS1 (not S0)", "instead of S0"
_SHORT_SOURCE = re.compile(
    r"(?:\bnot|\bfrom|\binstead\s+of|\brather\s+than)\s+(?P<device>s\d|ama\d|usb\d)\b", re.I
)
_EXPLICIT = re.compile(r"console=(?P<dev>[A-Za-z]+\d+)(?:,(?P<speed>\d+[A-Za-z0-9]*))?")
DEFAULT_SPEED = "115200"


@dataclass
class _Ask:
    """What a group of console clauses asks."""

    device: str | None = None
    source: str | None = None
    speed: str | None = None
    old_speed: str | None = None
    adding: bool = False
    same_speed: bool = False


# options whose value is a device: "earlyprintk on ttyS0", "kgdboc at ttyS1, 115200"
_DEVICE_OPTION = re.compile(
    r"\b(?P<key>earlyprintk|kgdboc)\s+(?:(?:on|at|to|via|over|=)\s+)?(?:the\s+)?"
    r"(?P<device>tty(?:S|AMA|USB|PS)\d+|hvc\d+)\b"
    r"(?:\s*(?:,|at)\s*(?P<speed>\d{3,7})\b(?:\s*(?:baud|bps))?)?",
    re.I,
)


def _device_options(state: PlanState) -> None:
    """Options that take a device, said in words.

    "earlyprintk on ttyS0" is ``earlyprintk=ttyS0``, not a second console.
    """
    from oic_ai.tools.planner.rules.kernel import add_cmdline_args

    for match in state.text.matches(_DEVICE_OPTION):
        key = match.group("key").lower()
        value = state.text.raw(*match.span("device"))
        speed = match.group("speed")
        if speed and int(speed) in _BAUDS:
            value += f",{speed}"
        state.text.consume(*match.span())
        add_cmdline_args(state, [f"{key}={value}"])


# "yocto used console=serial0,115200", "the old image had quiet loglevel=3": the options
# of the setup the user had before; what they ask for comes in its own words
_USED_BEFORE = re.compile(
    r"\b(?:used|had|was\s+using|were\s+using|ran\s+with|booted\s+with)\s+"
    r"(?P<args>(?>[a-z_][a-z0-9_.-]*(?:=[^\s,;\x1f]+(?:,(?![a-z_][a-z0-9_.-]*=)[^\s,;\x1f]+)*)?)"
    r"(?:\s+(?>[a-z_][a-z0-9_.-]*(?:=[^\s,;\x1f]+(?:,(?![a-z_][a-z0-9_.-]*=)[^\s,;\x1f]+)*)?))*)"
    r"(?=[\s\x1f]*(?:$|[,;:)\x1f—–-]|\.(?:\s|$)))",
    re.I,
)


# "we always ran with isolcpus=2,3, add that": the old options asked for again
_WANTED_AGAIN = re.compile(
    r"\b(?:(?:add|put|use|keep|want|need|include|set|carry)\s+(?:over\s+)?(?:that|those|these|them|it"
    r"|the\s+same)|again|same\s+here|as\s+well)\b"
)
_SENTENCE_END = re.compile(r"[.!?;\n](?:\s|$)")


def _used_before(state: PlanState) -> None:
    """Options the old setup used are context: "yocto used console=serial0,115200".

    Only a run of words holding a ``key=value``: "we used nano" is no kernel option. When
    the sentence asks for them again ("..., add that", "same here") they are read as
    asked for.
    """
    work = state.text.work
    for match in state.text.matches(_USED_BEFORE):
        end = _SENTENCE_END.search(work, match.end())
        rest = work[match.end() : end.start() if end else len(work)]
        if "=" in match.group("args") and not _WANTED_AGAIN.search(rest):
            state.text.consume(*match.span(), "context")


# "lidar is on ttyUSB0", "the GPS sits on ttyS1", "cams on /dev/video*": where a device of
# the machine is attached, said as a fact (why a user needs a group), never a console
_ATTACHED = re.compile(
    r"^[\s\x1f(]*(?:(?:and|but|so|the|our|my|its|their)\s+)*(?P<thing>[a-z][\w-]*)"
    r"(?:\s+(?:is|are|sits?|lives?|hangs?|shows?\s+up|appears?|connected|attached|plugged\s+in"
    r"|hooked\s+up|wired)(?:\s+(?:up|in))?)?\s+(?:on|at|via|as|to)\s+(?:the\s+)?"
    r"(?:/dev/[\w./*?-]+|(?:/dev/)?(?:tty(?:S|AMA|USB|ACM|mxc|THS|PS|SAC|LP|O|MFD|HS|AML|SIF)\d+|hvc\d+))"
    r"[\s\x1f).!]*$",
    re.I,
)
# what is said to be on a serial line when it is the console's: "the console is on ttyS1"
_CONSOLE_THINGS = frozenset(
    "console consoles serial output log logs logging boot kernel messages getty login terminal "
    "it that this them one port line uart bmc sol ipmi serial-over-lan dmesg printk".split()
)


def _attached_devices(state: PlanState) -> None:
    """Clauses that only say where a device of the machine is attached are context."""
    text = state.text
    for clause in split_clauses(text.original):
        match = _ATTACHED.match(text.work[clause.start : clause.end])
        if match is not None and match.group("thing").lower() not in _CONSOLE_THINGS:
            text.consume(clause.start, clause.end, "context")


def rule_console(state: PlanState) -> None:
    """Set, move or add serial consoles on the kernel command line."""
    text = state.text
    _attached_devices(state)
    _used_before(state)
    _device_options(state)
    groups: list[list[Clause]] = []
    last_sentence = -1
    for clause in split_clauses(text.original):
        piece = text.work[clause.start : clause.end]
        written = _unread(state, clause.start, clause.end)
        follows = bool(groups) and clause.sentence == last_sentence
        short = follows and _SHORT_SOURCE.search(piece)
        if not _is_console(written, piece) and not (follows and _speed_only(piece) or short):
            continue
        if groups and clause.sentence == last_sentence:
            groups[-1].append(clause)
        else:
            groups.append([clause])
        last_sentence = clause.sentence
    for group in groups:
        listed = _listed(state, group)
        ask = _read(state, group) if not listed else None
        if ask is None and not listed:
            continue
        for clause in group:
            _consume_but_options(state, clause)
        for each in listed or ([ask] if ask else []):
            _apply(state, each)
    _remove_consoles(state)
    _kept_consoles(state)
    _serial_there(state)


# "keep tty0 though", "leave the serial console alone": a console that stays as it is
_KEEP = re.compile(
    r"\b(?:keep(?:ing)?|leave|leaving|retain|preserve)\s+(?:the\s+|that\s+)?"
    r"(?:(?P<device>tty\d+|tty[a-z]+\d+|hvc\d+)(?:\s+consoles?)?|(?P<virtual>vga|virtual|screen|"
    r"graphical|framebuffer|display|monitor|local|text)\s+(?:consoles?|one)"
    r"|(?P<serial>serial)\s+(?:consoles?|one))"
    r"(?![\w=,])(?:\s+(?:alone|as\s+(?:it\s+)?is|untouched|unchanged|there|in\s+place))?"
    r"(?:\s*,?\s*(?:though|tho|however|still|please|pls))?\b",
    re.I,
)


def _kept_consoles(state: PlanState) -> None:
    """A console the request keeps asks nothing, when the command line still has it.

    "drop the serial console, keep tty0 though": ``console=tty0`` stays as it is. A
    console kept that is not on the line is left to be reported.
    """
    for match in state.text.matches(_KEEP):
        consoles = _consoles(state.current_cmdline.split())
        if match.group("device"):
            there = any(d.lower() == match.group("device").lower() for _, d, _ in consoles)
        else:
            virtual = match.group("virtual") is not None
            there = any(bool(_VIRTUAL.match(d)) == virtual for _, d, _ in consoles)
        if there:
            state.text.consume(*match.span(), "context")


# a serial console asked for without a device or speed: "need boot logs on serial", "the
# console output over serial", "serial console please"
_ON_SERIAL = re.compile(
    r"\b(?:on|to|over|via|through|from)\s+(?:the\s+)?serial(?:\s+(?:consoles?|ports?|lines?))?\b"
    r"|\bserial\s+(?:consoles?|output|logging|logs?)\b",
    re.I,
)
# what goes to the serial line must be the console's: "python talks to serial ports" is not
_CONSOLE_OUTPUT = re.compile(
    r"\b(?:consoles?|boot(?:s|ing)?|logs?|logging|output|messages|kernel|dmesg|printk)\b", re.I
)
_NOT_WANTED = re.compile(r"\b(?:no|not|without|never|don'?t|remove|drop|disable|kill)\b", re.I)


def _serial_there(state: PlanState) -> None:
    """A serial console asked for when the command line has one asks for nothing.

    "need boot logs on serial for debugging" with ``console=ttyS0,115200`` there: the
    console stays as it is, and a note says so. Without one, the clause is left to be
    reported (which device and speed it wants is not said).
    """
    args = state.current_cmdline.split()
    serial = [args[i] for i, d, _ in _consoles(args) if not _VIRTUAL.match(d)]
    if not serial:
        return
    for clause in split_clauses(state.text.original):
        work = state.text.work[clause.start : clause.end]
        match = _ON_SERIAL.search(work)
        if match is None or _NOT_WANTED.search(work) or _DEVICE.search(work) or _speeds(work):
            continue
        if not _CONSOLE_OUTPUT.search(work):
            continue  # "read the sensors over serial port": a device, not the console
        state.text.consume(clause.start, clause.end, "context")
        state.notes.append(
            f"the kernel command line already has a serial console ({', '.join(serial)})"
        )


# another option in a console clause ("ip=dhcp rd.neednet=1 console=ttyS1,115200", "console=
# ttyS0,115200 loglevel=7 quiet"): the kernel rule's to read
_OTHER_OPTION = re.compile(
    r"(?<![^\s,;\x1f])(?:(?!console=)[a-z_][a-z0-9_.-]*=[^\s;\x1f]+"
    rf"|(?:{'|'.join(sorted(FLAGS))})(?![\w=.-]))",
    re.I,
)


def _consume_but_options(state: PlanState, clause: Clause) -> None:
    """Mark ``clause`` read, except the ``key=value`` options other than ``console=``."""
    start = clause.start
    for match in _OTHER_OPTION.finditer(state.text.work, clause.start, clause.end):
        state.text.consume(start, match.start())
        start = match.end()
    state.text.consume(start, clause.end)


# "disable the tty0 console", "remove the VGA console", "only keep the serial console"
# "kill the serial console", "get rid of tty0": a device named alone is its console
_DROP_VERB = (
    rf"\b(?:{TAKE_OUT}|disable|turn\s+off|switch\s+off|no|without)\s+(?:the\s+|that\s+|those\s+)?"
)
_DROP = re.compile(
    rf"{_DROP_VERB}(?:(?P<device>tty\d+|tty[a-z]+\d+|hvc\d+)|(?P<virtual>vga|virtual|screen|"
    r"graphical|framebuffer|display|monitor|local|text)|(?P<serial>serial))\s+consoles?\b"
    rf"|{_DROP_VERB}(?P<device2>tty\d+|tty[a-z]+\d+|hvc\d+)\b(?![=,])"
    r"|\bonly\s+(?:keep\s+)?(?:the\s+)?(?P<only>serial)\s+console\b"
    # "take the console off the serial port", "consoles off serial": the serial ones go
    r"|\bconsoles?\s+off,?\s+(?:of\s+)?(?:the\s+)?(?P<off_serial>serial)(?:\s+(?:ports?|lines?))?\b"
    # "just tty0", "console on tty0 only", "only the ttyS1 console": that one alone stays
    r"|\b(?:just|only)\s+(?:keep\s+)?(?:the\s+)?(?P<alone>tty\d+|tty[a-z]+\d+|hvc\d+)\b(?![=,])"
    r"(?:\s+consoles?)?"
    r"|\bconsoles?\s+(?:on|to)\s+(?P<alone2>tty\d+|tty[a-z]+\d+|hvc\d+)\s+only\b"
    # "the ttyS0 console can go", "that tty0 one should be removed"
    r"|(?<![\w=])(?P<device3>tty\d+|tty[a-z]+\d+|hvc\d+)\s+(?:consoles?|one|entry)\s*,?\s*"
    rf"(?:(?:it|that)\s+)?{GOES_AWAY}\b",
    re.I,
)


def _remove_consoles(state: PlanState) -> None:
    for match in state.text.matches(_DROP):
        args = state.current_cmdline.split()
        consoles = _consoles(args)
        device = match.group("device") or match.group("device2") or match.group("device3")
        alone = (match.group("alone") or match.group("alone2") or "").lower()
        if alone:
            if not any(d.lower() == alone for _, d, _ in consoles):
                continue  # "just ttyS1" with no ttyS1 there: a console to set, read elsewhere
            gone = [i for i, d, _ in consoles if d.lower() != alone]
        elif device:
            wanted = {device.lower()}
            gone = [i for i, d, _ in consoles if d.lower() in wanted]
        elif match.group("virtual") or match.group("only"):
            gone = [i for i, d, _ in consoles if _VIRTUAL.match(d)]
        else:
            gone = [i for i, d, _ in consoles if not _VIRTUAL.match(d)]
        state.text.consume(*match.span())
        if not gone:
            state.notes.append("there is no such console on the kernel command line")
            continue
        state.cmdline = " ".join(a for i, a in enumerate(args) if i not in gone)


_DROP_ARG = re.compile(rf"{_DROP_VERB}console=", re.I)
_REMOVING = re.compile(r"\b(?:remove|drop|delete|strip)\b.*\bfrom\b", re.I)


# "ttyS0 isn't connected to anything", "ttyS1 is unused here": a device said to be absent
_ABSENT = re.compile(
    rf"{_DEVICE.pattern}(?:\s+(?:port|console|line|uart))?\s+(?:(?:is|are)\s+)?"
    r"(?:(?:not|n't|never)\s+(?:connected|wired|used|present|there|attached|available|hooked\s+up)"
    r"|isn't\s+(?:connected|wired|used|present|there|attached|available|hooked\s+up)"
    r"|unused|disconnected|unconnected|dead)\b",
    re.I,
)


def _is_console(written: str, work: str) -> bool:
    from oic_ai.tools.planner.rules.kernel_order import OPTION_GOES

    if "\x1f" in work and not work.replace("\x1f", "").strip():
        return False  # another rule read it all
    goes = OPTION_GOES.search(work)
    if (goes is not None and "=" in goes.group("arg")) or _ABSENT.search(written):
        return False  # "if there's a console=ttyS0 entry it can go": a removal, not an ask
    if _REMOVING.search(work) or _DROP.search(work) or _DROP_ARG.search(work):
        return False  # "remove console=ttyS0 from the cmdline", "drop console=ttyS0": a removal
    if _DEVICE.search(written) and not re.search(r"console=", written, re.I):
        return True
    if _CUE.search(work):
        return bool(_DEVICE.search(written) or _speeds(work))
    return False


def _speed_only(work: str) -> bool:
    """A clause that only gives the speed after a console one: "keep 115200", "9600 baud"."""
    return bool(_SAME_SPEED.search(work) or _speeds(work))


def _speeds(work: str) -> list[re.Match[str]]:
    return [
        m
        for m in _SPEED.finditer(work)
        if int(m.group("speed")) in _BAUDS or re.search(r"baud|bps", m.group(), re.I)
    ]


def _unread(state: PlanState, start: int, end: int) -> str:
    """The original text of ``start:end`` in its case, with what a rule read blanked."""
    work = state.text.work
    return "".join(
        state.text.BLANK if work[i] == state.text.BLANK else state.text.original[i]
        for i in range(start, end)
    )


def _read(state: PlanState, group: list[Clause]) -> _Ask | None:
    ask = _Ask()
    for clause in group:
        written = _unread(state, clause.start, clause.end)
        work = state.text.work[clause.start : clause.end]
        explicit = _EXPLICIT.search(written)
        for match in _DEVICE.finditer(written):
            if explicit and explicit.start("dev") == match.start():
                continue
            if _SOURCE_BEFORE.search(written[: match.start()]):
                ask.source = match.group()
            else:
                ask.device = match.group()
        if explicit:
            ask.device = explicit.group("dev")
            ask.speed = explicit.group("speed") or ask.speed
        for match in _speeds(work):
            if explicit and (explicit.group("speed") or "").startswith(match.group("speed")):
                continue
            if _SOURCE_BEFORE.search(work[: match.start()]):
                ask.old_speed = match.group("speed")
            elif not _SAME_SPEED.search(work):
                ask.speed = match.group("speed")
        short = _SHORT_SOURCE.search(work)
        if short and ask.source is None:
            ask.source = "tty" + short.group("device").upper()  # "(not S0)": ttyS0
        ask.adding = ask.adding or bool(_ADDING.search(work))
        ask.same_speed = ask.same_speed or bool(_SAME_SPEED.search(work))
    if ask.device is None and ask.speed is None and ask.source is None:
        return None
    return ask


def _listed(state: PlanState, group: list[Clause]) -> list[_Ask]:
    """One console each for several ``console=`` options written out in a group.

    "console=ttyS0,115200 console=tty0": every one is on the line once, the virtual one
    next to the serial one (a written-out list adds; it moves nothing).
    """
    written = "".join(_unread(state, c.start, c.end) + " " for c in group)
    found = list(_EXPLICIT.finditer(written))
    if len(found) < 2:
        return []
    return [_Ask(device=m.group("dev"), speed=m.group("speed"), adding=True) for m in found]


def _consoles(args: list[str]) -> list[tuple[int, str, str]]:
    """``(index, device, options)`` of every ``console=`` argument."""
    found = []
    for index, arg in enumerate(args):
        if arg.startswith("console="):
            device, _, options = arg[len("console=") :].partition(",")
            found.append((index, device, options))
    return found


def _apply(state: PlanState, ask: _Ask) -> None:
    args = state.current_cmdline.split()
    consoles = _consoles(args)
    serial = [c for c in consoles if not _VIRTUAL.match(c[1])]
    by_device = {device: (index, options) for index, device, options in consoles}
    device = ask.device
    if device is None:
        # a speed alone: the serial console this plan touched last, else the last one there
        if not serial:
            state.notes.append("there is no serial console to set the speed of")
            return
        index, device, options = serial[-1]
        if ask.speed:
            _set(state, args, index, device, ask.speed, options)
        return
    replaced = None
    if ask.source and ask.source in by_device:
        replaced = by_device[ask.source]
    elif (
        device not in by_device
        and not ask.adding
        and len(serial) == 1
        and not ask.source
        and not _VIRTUAL.match(device)  # "console=tty0" moves no serial console
    ):
        replaced = (serial[0][0], serial[0][2])  # "the serial console should be ttyS1"
    elif device not in by_device and not ask.adding and not ask.source:
        # "serial console is ttyS1" on a line with ttyAMA0 and ttyS0: the one of its kind
        kind = [c for c in serial if _kind(c[1]) == _kind(device) and not _VIRTUAL.match(device)]
        if len(kind) == 1:
            replaced = (kind[0][0], kind[0][2])
    if device in by_device and replaced is not None and by_device[device][0] != replaced[0]:
        del args[replaced[0]]  # the new device is there already: drop the old one
        replaced = None
        consoles = _consoles(args)
        by_device = {d: (i, o) for i, d, o in consoles}
    if replaced is not None:
        index, options = replaced
        speed = ask.speed or _speed_of(options) or DEFAULT_SPEED
        _set(state, args, index, device, speed, options)
        return
    if device in by_device:
        index, options = by_device[device]
        speed = ask.speed or ""
        bare_same = speed == _speed_of(speed) == _speed_of(options)  # 115200 on 115200n8
        if ask.speed and options != ask.speed and not bare_same:
            _set(state, args, index, device, ask.speed, options)
        else:
            state.notes.append(f"console={device} is already on the kernel command line")
        return
    if _VIRTUAL.match(device):
        args.append(f"console={device}")  # a virtual terminal has no speed
        state.cmdline = " ".join(args)
        return
    speed = ask.speed or DEFAULT_SPEED
    if not ask.speed:
        state.warn(f"no speed was given for the {device} console; used {speed} baud")
    args.append(f"console={device},{speed}")
    state.cmdline = " ".join(args)


def _kind(device: str) -> str:
    """A console device's kind, its name without the number ("ttyS", "ttyAMA", "hvc")."""
    return device.rstrip("0123456789").lower()


def _speed_of(options: str) -> str:
    match = re.match(r"\d*", options)
    return match.group() if match else ""


def _set(
    state: PlanState, args: list[str], index: int, device: str, speed: str, options: str
) -> None:
    """Write ``console=device,speed`` at ``index``, keeping parity and flow ("n8").

    A speed given with its own parity ("115200n8") replaces the old options whole.
    """
    suffix = "" if speed != _speed_of(speed) else options[len(_speed_of(options)) :]
    args[index] = f"console={device},{speed}{suffix}"
    state.cmdline = " ".join(args)


def settle_arch_consoles(state: PlanState) -> None:
    """Leave to the architecture change the console it makes itself.

    "ARM64 board, serial console is ttyAMA0 115200" on an x86_64 base: the target change
    already moves ``console=ttyS0`` to ``console=ttyAMA0``; a command line equal to that
    is no change of its own (an operation that would change nothing is reported as not
    applied).
    """
    arch = state.set_target.get("arch")
    if state.cmdline is None or not arch or arch == state.facts.target.arch:
        return
    from oic_ai.stores.targets import load_targets

    followed = load_targets().follow_consoles(state.facts.kernel.cmdline, arch)
    if " ".join(state.cmdline.split()) == " ".join(followed.split()):
        state.cmdline = None
