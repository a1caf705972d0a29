"""The speaking unit for real: espeak-ng makes the sound, a running bank says a whole Ultime
game and a whole classic game (a WAV per sentence, with speech in it), the emulator's mixer
plays it through SDL's disk audio driver, and the table's gestures switch it and repeat it."""

from __future__ import annotations

import io
import math
import os
import shutil
import subprocess
import sys
import wave
from array import array
from pathlib import Path

import pytest

from bank.app.runtime import Runtime
from bank.app.script import parse_script
from bank.app.voice import SpeechService, speech_settings
from bank.cli import main
from bank.services.settings import SettingsError, load_settings
from bank.unit.io import CardRanges
from drivers.deck import with_foreign
from drivers.speech import EspeakEngine, Speaker, SpeechSettings, WavDirPlayer, wav_duration

ROOT = Path(__file__).resolve().parents[2]
needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None and not os.environ.get("CI"),
    reason="espeak-ng is not installed (sudo apt install espeak-ng; CI installs it)",
)


def rms(samples: bytes) -> int:
    """The root mean square of 16-bit samples (0: silence)."""
    a = array("h", samples[: len(samples) // 2 * 2])
    return int(math.sqrt(sum(x * x for x in a) / len(a))) if a else 0


def loudness(wav: bytes) -> int:
    """The RMS of a WAV's samples (0: silence)."""
    with wave.open(io.BytesIO(wav)) as w:
        assert w.getsampwidth() == 2
        return rms(w.readframes(w.getnframes()))


def assert_speech(wav: bytes, text: str) -> None:
    """*wav* is a sentence said: not silent, and as long as its text says (espeak-ng at 160
    words a minute says 8 to 25 characters a second)."""
    assert loudness(wav) > 300, text
    seconds = wav_duration(wav)
    assert len(text) / 30 < seconds < len(text) / 6 + 1.0, (text, seconds)


@needs_espeak
@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("fr", "chapeau paie six cents euros de loyer à chien pour Rue de la Paix"),
        ("en", "dog buys Mayfair for four hundred pounds"),
    ],
)
def test_espeak_ng_says_a_sentence_in_each_language(lang: str, text: str) -> None:
    wav = EspeakEngine(SpeechSettings(), lang).synthesize(text)
    assert_speech(wav, text)
    with wave.open(io.BytesIO(wav)) as w:  # the header was fixed: a reader takes every frame
        assert w.getnframes() * w.getsampwidth() == len(wav) - 44


@needs_espeak
def test_a_louder_and_faster_voice_is_louder_and_shorter() -> None:
    text = "Enchère : cent vingt euros, bateau"
    soft = EspeakEngine(SpeechSettings(volume=30, rate=140), "fr").synthesize(text)
    loud = EspeakEngine(SpeechSettings(volume=100, rate=260), "fr").synthesize(text)
    assert loudness(loud) > 1.5 * loudness(soft)
    assert wav_duration(loud) < 0.8 * wav_duration(soft)


def test_an_engine_that_is_not_installed_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng on this PATH
    from drivers.base import DriverError

    with pytest.raises(DriverError, match="espeak-ng is not installed") as info:
        EspeakEngine(SpeechSettings(), "fr")
    assert "\n" not in str(info.value)
    with pytest.raises(DriverError, match="needs a voice model"):
        from drivers.speech import open_engine

        open_engine(SpeechSettings(engine="piper"), "fr")


def test_speech_settings_are_checked() -> None:
    s = load_settings(None, ['speech.say="money"', "speech.rate=200", 'speech.voice="fr+f3"'])
    assert s.unit().speech is True and s.get("speech", "rate") == 200
    assert load_settings(None, []).unit().speech is False  # off by default (the box)
    for bad in ('speech.say="loud"', "speech.rate=5", "speech.volume=101", 'speech.engine="x"'):
        with pytest.raises(SettingsError):
            load_settings(None, [bad])


def _game(runtime: Runtime, script: str) -> None:
    """Play *script* on the running bank, letting the voice finish each input's sentences (so
    none is cut by the next: a real table gives it the time)."""
    service: SpeechService = runtime.speech  # type: ignore[attr-defined]
    cards = with_foreign(CardRanges.of(runtime.edition))
    for action in parse_script(script, "game", cards):
        runtime.perform(action)
        if service.speaker is not None:
            assert service.speaker.wait_idle(20)


@needs_espeak
@pytest.mark.parametrize(
    ("edition", "script"),
    [
        ("ultime-fr", ROOT / "tests" / "scripts" / "03_debt.tap"),
        (
            "classic-fr",
            ROOT / "tests" / "rulesets" / "classic_examples" / "02_classic_jail_trade.tap",
        ),
    ],
)
def test_a_whole_game_is_said_a_wav_per_sentence(
    edition: str, script: Path, tmp_path: Path
) -> None:
    settings = load_settings(
        None, [f'game.data_dir="{tmp_path / "d"}"', f'game.edition="{edition}"', 'speech.say="all"']
    )
    runtime = Runtime(settings)
    out = tmp_path / "voice"
    service = SpeechService(
        runtime, speech_settings(settings.raw["speech"]), "all", player=lambda: WavDirPlayer(out)
    )
    runtime.speech = service  # type: ignore[attr-defined]
    runtime.start(control=False)
    service.start()
    try:
        text = script.read_text(encoding="utf-8")
        _game(runtime, text)
    finally:
        service.close()
        runtime.stop()
    wavs = sorted(out.glob("*.wav"))
    assert len(wavs) >= 8
    # one WAV a spoken input (an input's sentences are said as one)
    for wav in wavs:
        assert_speech(wav.read_bytes(), wav.with_suffix(".txt").read_text(encoding="utf-8"))
    said = " ".join(p.read_text(encoding="utf-8") for p in sorted(out.glob("*.txt")))
    assert "euros" in said and not any(ch.isdigit() for ch in said)


class _Slow:
    """A player that records what it was asked (the sound card is the edge of this test)."""

    def __init__(self) -> None:
        self.played: list[str] = []
        self.stops = 0

    def play(self, wav: bytes, text: str) -> None:
        self.played.append(text)

    def stop(self) -> None:
        self.stops += 1

    def busy(self) -> bool:
        return False


@needs_espeak
def test_the_newest_sentence_wins_and_say_returns_at_once() -> None:
    player = _Slow()
    speaker = Speaker(EspeakEngine(SpeechSettings(), "fr"), player)
    try:
        import time

        t0 = time.perf_counter()
        for n in range(20):
            speaker.say(f"phrase {n}")
        assert time.perf_counter() - t0 < 0.05  # never waits for the engine
        assert speaker.wait_idle(10)
    finally:
        speaker.close()
    assert player.played[-1] == "phrase 19"
    assert len(player.played) < 20  # the ones superseded while one was made were dropped


def test_the_table_gestures_switch_speech_and_repeat_the_last_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "g.tap"
    script.write_text(
        "tap bank:1\ntap bank:2\npress ok\n"
        "tap prop:3\ntap bank:1\n"  # car buys
        "hold menu 3\n"  # speech off
        "tap prop:3\ntap bank:2\n"  # a rent, not said
        "hold ok 3\n"  # say it again: the latest sentence, said even while speech is off
        "hold menu 3\n"  # speech on
        "tap bank:2\n"  # a balance, said
        "hold menu 2\n"  # shorter than 3 s: an M press (the menu), no switch
    )
    assert main(["script", str(script), "--say", "--data-dir", str(tmp_path / "d")]) == 0
    lines = [ln.split(None, 1)[1] for ln in capsys.readouterr().out.splitlines()]
    talk = [ln for ln in lines if ln.startswith(("say ", "speech "))]
    assert talk == [
        "say Nouvelle partie, voiture, hélicoptère",
        "say voiture achète Rue de Vaugirard pour cent millions d'euros",
        "speech off",
        "say Voix coupée",
        "speech again",
        "say hélicoptère paie quatre-vingts millions d'euros de loyer à voiture",
        "speech on",
        "say Voix activée",
        "say hélicoptère : mille quatre cent vingt millions d'euros",
        "say Départ plus deux cents",
    ]
    assert any(ln.startswith("screen menu") for ln in lines[-4:])


def test_a_refused_gesture_says_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "r.tap"
    script.write_text("tap bank:1\ntap bank:2\npress ok\ntap bank:3\ntap prop:3\ntap prop:4\n")
    assert main(["script", str(script), "--say", "--data-dir", str(tmp_path / "d")]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = [ln.split(" say ", 1)[1] for ln in lines if " say " in ln]
    # a card that is not in the game, then a property card where a bank card is expected
    assert "Refusé. Carte hors partie" in said
    assert "Refusé. Carte banque s'il vous plaît" in said


def test_money_mode_says_money_and_refusals_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "m.tap"
    script.write_text("tap bank:1\ntap bank:2\npress ok\ntap prop:3\ntap bank:1\ntap prop:9\n")
    assert main(["script", str(script), "--say", "money", "--data-dir", str(tmp_path)]) == 0
    said = [ln.split(" say ", 1)[1] for ln in capsys.readouterr().out.splitlines() if " say " in ln]
    assert said == ["voiture achète Rue de Vaugirard pour cent millions d'euros"]


@needs_espeak
def test_the_emulator_plays_the_voice_through_the_mixer(tmp_path: Path) -> None:
    """pygame's mixer on SDL's disk audio driver: the sentence's samples reach the "device"
    after the cue's (a child process: SDL reads its audio driver when the mixer opens)."""
    raw = tmp_path / "audio.raw"
    code = """
import time
from bank.unit.io import Cue
from drivers.speech import EspeakEngine, SpeechSettings, Speaker
from firmware_sim.sounds import MixerPlayer, MixerSpeechPlayer
mixer = MixerPlayer()
voice = MixerSpeechPlayer(mixer)
speaker = Speaker(EspeakEngine(SpeechSettings(), "fr"), voice, cue_busy=mixer.busy)
mixer.play(Cue.KACHING)
speaker.say("chien achète Rue de la Paix pour quatre cents euros")
assert speaker.wait_idle(10)
time.sleep(3.5)
print(speaker.latencies[0][1])
"""
    env = dict(os.environ, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(raw))
    env.pop("SDL_DISKAUDIODELAY", None)
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = raw.read_bytes()
    second = 44100 * 2 * 2  # the mixer's rate, 16-bit, as SDL opened it (stereo at most)
    assert len(data) > second  # more than the cue alone: the sentence played after it
    assert rms(data[second // 2 :]) > 100  # speech after the cue, not silence


def test_the_terminal_holds_m_and_ok_for_the_voice_on_a_real_pseudo_terminal() -> None:
    """``n`` holds M (voice on/off) and ``a`` holds ✓ (say it again), and ``?`` says so."""
    from tests.panels.test_terminal_panel import Pty

    term = Pty("tests.panels.term_prog", "0.3")
    try:
        term.wait_for(lambda: b"+--------------------+" in term.screen, what="the screen")
        for key, button in ((b"n", "menu"), (b"a", "ok")):
            before = len(term.inputs)
            term.type(key)
            term.wait_for(lambda b=before: len(term.inputs) >= b + 2, what=f"the {button} hold")
            held = term.inputs[before : before + 2]
            assert held[0].startswith("ButtonPressed") and f"'{button}'" in held[0]
            assert held[1].startswith("ButtonReleased") and f"'{button}'" in held[1]
        term.type(b"?")
        term.wait_for(lambda: b"voice on/off" in term.screen, what="the help")
        term.type(b"q")
        assert term.proc.wait(timeout=10) == 0
    finally:
        term.close()


@pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay is not installed")
def test_aplay_never_blocks_and_a_missing_sound_card_is_said_once(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """``play`` returns at once whatever the sound device; without one, one warning line."""
    import time

    from drivers.speech import AplayPlayer

    player = AplayPlayer(device="ultibank-no-such-device")
    silence = io.BytesIO()
    with wave.open(silence, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(22050)
        w.writeframes(b"\0\0" * 22050 * 5)  # five seconds
    took = []
    for _ in range(3):
        t0 = time.perf_counter()
        player.play(silence.getvalue(), "silence")
        took.append(time.perf_counter() - t0)
        deadline = time.monotonic() + 10
        while player.busy() and time.monotonic() < deadline:
            time.sleep(0.02)  # aplay finds no device and exits
    player.stop()
    assert max(took) < 2.5  # five seconds of sound: play() did not wait for it
    warnings = [r for r in caplog.records if "aplay cannot play" in r.getMessage()]
    assert len(warnings) == 1 and "\n" not in warnings[0].getMessage()


@needs_espeak
def test_a_sentence_being_made_waits_while_the_unit_handles_an_input() -> None:
    """The speaker pauses espeak-ng's process (stopped, state T) while the unit is busy and
    lets it go on after: the sentence still comes out whole."""
    import threading
    import time

    engine = EspeakEngine(SpeechSettings(), "fr")
    speaker = Speaker(engine, _Slow())
    made: list[bytes] = []
    long = "Le chapeau paie six cents euros de loyer au chien pour la rue de la Paix. " * 30
    worker = threading.Thread(target=lambda: made.append(engine.synthesize(long)))
    worker.start()
    try:
        deadline = time.monotonic() + 10
        while engine._proc is None and time.monotonic() < deadline:
            time.sleep(0.001)
        proc = engine._proc
        assert proc is not None, "espeak-ng did not start"
        speaker.busy(True)

        def state() -> str:
            stat = Path(f"/proc/{proc.pid}/stat").read_text()
            return stat.rsplit(")", 1)[1].split()[0]

        deadline = time.monotonic() + 5
        while state() != "T" and time.monotonic() < deadline:
            time.sleep(0.001)
        assert state() == "T"  # stopped while the unit works
        time.sleep(0.2)
        assert proc.poll() is None and not made  # it did not go on meanwhile
        speaker.busy(False)
        worker.join(30)
        assert made and made[0].startswith(b"RIFF") and wav_duration(made[0]) > 10
    finally:
        speaker.busy(False)
        worker.join(30)
        speaker.close()


def test_the_daemon_says_busy_around_each_input_and_the_screen_comes_inside(
    tmp_path: Path,
) -> None:
    """``busy_listeners`` hear True when an input starts and False once its screens went out,
    so the voice can hold the engine for exactly that long."""
    from bank.unit.io import Button, ButtonPressed, ButtonReleased

    settings = load_settings(None, [f'game.data_dir="{tmp_path / "d"}"'])
    runtime = Runtime(settings)
    seen: list[str] = []

    class Probe:
        def start(self, post: object) -> None:
            pass

        def show(self, screen: object) -> None:
            seen.append("screen")

        def play(self, cue: object) -> None:
            pass

        def close(self) -> None:
            pass

    runtime.add_panel(Probe())
    runtime.start(control=False)
    try:
        runtime.daemon.call(lambda: None)
        seen.clear()
        runtime.daemon.busy_listeners.append(lambda busy: seen.append(f"busy {busy}"))
        runtime.daemon.post(ButtonPressed(0.0, Button.MENU))
        runtime.daemon.post(ButtonReleased(0.0, Button.MENU))
        runtime.daemon.call(lambda: None)
    finally:
        runtime.stop()
    assert seen[0] == "busy True" and seen[-1] == "busy False"
    assert "screen" in seen
    pairs = [s for s in seen if s.startswith("busy")]
    assert pairs == ["busy True", "busy False"] * (len(pairs) // 2)
    at = seen.index("screen")  # the screen came while its input was being handled
    assert [s for s in seen[:at] if s.startswith("busy")][-1] == "busy True"
    assert next(s for s in seen[at:] if s.startswith("busy")) == "busy False"
