"""Handoff tests of dynd's lock screen: copy this file to start your own.

With the package installed (``pip install ./clients/python pytest``) the `dynd` pytest plugin
is on: the ``dynd_client`` fixture starts a private dynd (found with ``--dynd-binary PATH``,
``$DYND_BINARY``, ``dynd`` on PATH, or a dynd checkout's ``.build``) and connects to it. When
none is found the tests are skipped, or fail where dynd is required (``--dynd-required``, the
ini option ``dynd_required = true``, or ``CI=true`` in the environment).

    pytest clients/python/examples/test_lock_screen_handoff.py --dynd-binary .build/debug/dynd

Each test opens the lock screen on the manual clock (reproducible: nothing moves until the test
steps it), drags the screen up from y = 500 to 380 in 0.2 s, releases it with a chosen
velocity, checks that the screen takes that velocity over (`assert_handoff`: the handoff event
and the first frames of motion, as ``dynctl handoff`` does), then runs it to its outcome.
"""

from dynd import Client, assert_handoff

#: The pan of every test: from the lower part of the screen, 120 pt up, in 0.2 s.
START, END, DURATION = (160, 500), (160, 380), 0.2


def open_lock_screen(client: Client) -> str:
    """Opens a lock-screen session on the manual clock; its name."""
    return client.open_transition("lock-screen", clock="manual").session


def test_flick_up_hands_its_velocity_over_and_opens(dynd_client: Client) -> None:
    lock = open_lock_screen(dynd_client)
    pan = dynd_client.pan(lock, START, END, duration=DURATION, release_velocity=(0, -1400))
    check = assert_handoff(dynd_client, lock, pan, expected=(0, -1400), require_motion=True)
    assert not check.handoff.constraints  # straight up: the rail changes nothing
    assert dynd_client.run_until(lock, "done").outcome == "opened"


def test_slow_release_closes(dynd_client: Client) -> None:
    lock = open_lock_screen(dynd_client)
    pan = dynd_client.pan(lock, START, END, duration=DURATION, release_velocity=(0, 100))
    assert_handoff(dynd_client, lock, pan, expected=(0, 100))
    assert dynd_client.run_until(lock, "done").outcome == "closed"


def test_sideways_release_is_projected_onto_the_rail(dynd_client: Client) -> None:
    # The screen runs on a vertical rail: the finger's sideways 1234 pt/s is dropped, the
    # vertical -1400 pt/s handed over exactly.
    lock = open_lock_screen(dynd_client)
    pan = dynd_client.pan(lock, START, END, duration=DURATION, release_velocity=(1234, -1400))
    check = assert_handoff(dynd_client, lock, pan, expected=(0, -1400), require_motion=True)
    (rail,) = check.handoff.constraints
    assert rail.kind == "rail" and rail.axis == (0, 1)
    assert check.handoff.gesture_velocity == (1234, -1400)
    assert dynd_client.run_until(lock, "done").outcome == "opened"
