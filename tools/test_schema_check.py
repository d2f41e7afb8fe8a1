#!/usr/bin/env python3
"""Self-test of protocol/schema/*.json and tools/schema_check.py.

Run: python3 tools/test_schema_check.py   (needs only python3 and jsonschema)

The samples are raw JSON lines, written with the field names of the sections
of protocol/PROTOCOL.md marked **core** character for character; a test also
checks every name the schemas define against that document (or the file named
by $DYND_PROTOCOL_CORE).
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CHECKER = os.path.join(HERE, "schema_check.py")
SCHEMA_DIR = os.path.join(REPO, "protocol", "schema")
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # leave no __pycache__ in tools/

import schema_check  # noqa: E402  (exits 2 with an install hint if jsonschema is missing)
from jsonschema import Draft202012Validator  # noqa: E402

# Item states used by the samples below.
S_A = '{"id":"screen","center":[160,284],"angle":0,"velocity":[0,-512.5],"angular_velocity":0}'
S_A_SIZED = (
    '{"id":"screen","center":[160,284],"angle":0,"velocity":[0,-512.5],"angular_velocity":0,'
    '"size":[320,568]}'
)
S_B = '{"id":"box","center":[10.125,20],"angle":-0.785398,"velocity":[1,2],"angular_velocity":0.5}'

# (kind, line). Every one must pass, checked as its kind and with --kind auto.
VALID = [
    # --- requests: core ops
    ("request", '{"op":"hello"}'),
    ("request", '{"op":"hello","id":1}'),
    ("request", '{"op":"list","id":"l-1"}'),
    ("request", '{"op":"list","id":2.5}'),
    ("request", '{"op":"open","id":"o1","transition":"lock-screen"}'),
    (
        "request",
        '{"op":"open","transition":"wave-pop","session":"pop","params":{"rows":12,"complete_rule":"position"},'
        '"clock":"manual","fps":120,"keep":true}',
    ),
    ("request", '{"op":"open","transition":"sidebar-menu","clock":"realtime","fps":59.94,"keep":false}'),
    ("request", '{"op":"open","scene":{}}'),
    (
        "request",
        '{"op":"open","scene":{"bounds":[320,568],"items":[{"id":"box","center":[160,100],"size":[100,100],'
        '"angle":0,"shape":"rectangle"}],"behaviors":[{"type":"gravity","items":["box"]},'
        '{"type":"collision","items":["box"],"mode":"everything","reference_bounds":true}]},"clock":"manual"}',
    ),
    (
        "request",
        '{"op":"open","session":"tour","scene":{"bounds":[0,0,320,568],"items":['
        '{"id":"ball","center":[50,50],"size":[40,40],"shape":"ellipse"},'
        '{"id":"tri","center":[200,50],"size":[60,60],"angle":0.5,"shape":"path","path":[[0,-30],[30,30],[-30,30]]},'
        '{"id":"label","center":[160,100],"size":[95,47]}],"behaviors":['
        '{"type":"attachment","id":"drag","item":"ball","anchor":[60,60],"offset":[5,0],"length":10,"damping":0.4,"frequency":1.5},'
        '{"type":"snap","item":"label","point":[160,284],"damping":0.5},'
        '{"type":"push","items":["tri"],"mode":"instantaneous","angle":-1.5708,"magnitude":20},'
        '{"type":"dynamic_item","items":["ball","tri"],"elasticity":0.4}]}}',
    ),
    ("request", '{"op":"gesture","session":"s1","phase":"began","x":160,"y":500,"t":0}'),
    ("request", '{"op":"gesture","session":"s1","phase":"changed","x":160,"y":420.5,"t":0.016}'),
    ("request", '{"op":"gesture","session":"s1","phase":"ended","x":160,"y":300,"t":0.1,"vx":0,"vy":-1200}'),
    ("request", '{"op":"gesture","id":9,"session":"s1","phase":"ended","x":160,"y":300}'),
    ("request", '{"op":"gesture","session":"s1","phase":"cancelled","x":0,"y":0}'),
    ("request", '{"op":"tap","session":"s1","x":280,"y":528}'),
    ("request", '{"op":"swipe","session":"menu","direction":"right"}'),
    ("request", '{"op":"swipe","session":"menu","direction":"left","x":200,"y":300,"vx":-800,"vy":0}'),
    ("request", '{"op":"swipe","session":"menu","direction":"up"}'),
    ("request", '{"op":"swipe","session":"menu","direction":"down"}'),
    ("request", '{"op":"step","session":"s1"}'),
    ("request", '{"op":"step","session":"s1","dt":0.008333,"count":120}'),
    ("request", '{"op":"get","session":"s1"}'),
    ("request", '{"op":"watch","id":4,"session":"s1"}'),
    ("request", '{"op":"close","session":"s1"}'),
    # --- requests: scene scripting ops
    ("request", '{"op":"add_item","session":"tour","item":{"id":"sq","center":[10,10],"size":[20,20]}}'),
    (
        "request",
        '{"op":"add_item","session":"tour","item":{"id":"hex","center":[100,100],"size":[40,40],"angle":0,'
        '"shape":"path","path":[[20,0],[10,17],[-10,17],[-20,0],[-10,-17],[10,-17]]}}',
    ),
    ("request", '{"op":"remove_item","session":"tour","item":"sq"}'),
    ("request", '{"op":"add_behavior","session":"tour","behavior":{"type":"gravity","items":["ball"],"direction":[0,-1]}}'),
    (
        "request",
        '{"op":"add_behavior","session":"tour","behavior":{"type":"gravity","id":"g","items":["ball","tri"],'
        '"angle":1.570796,"magnitude":4}}',
    ),
    ("request", '{"op":"add_behavior","session":"tour","behavior":{"type":"gravity","items":[],"magnitude":0}}'),
    (
        "request",
        '{"op":"add_behavior","session":"tour","behavior":{"type":"collision","id":"c","items":["ball"],'
        '"mode":"boundaries","insets":[20,0,-49,0],"boundaries":[{"id":"floor","from":[0,569],"to":[320,569]},'
        '{"id":"ramp","path":[[0,400],[100,450],[200,460]]}]}}',
    ),
    (
        "request",
        '{"op":"add_behavior","session":"tour","behavior":{"type":"collision","items":["ball","tri"],'
        '"mode":"items","reference_bounds":true,"insets":[0,0,0,0]}}',
    ),
    (
        "request",
        '{"op":"add_behavior","session":"tour","behavior":{"type":"attachment","id":"rail","item":"ball","to":"tri",'
        '"offset":[25,0],"to_offset":[-25,0],"length":50,"damping":1,"frequency":0,"kind":"sliding",'
        '"axis":[1,0],"range":[-100,100],"friction_torque":0}}',
    ),
    (
        "request",
        '{"op":"add_behavior","session":"tour","behavior":{"type":"attachment","item":"ball","to":"tri","kind":"pin",'
        '"friction_torque":2.5,"range":[-0.5,0.5]}}',
    ),
    ("request", '{"op":"add_behavior","session":"tour","behavior":{"type":"attachment","item":"ball","anchor":[0,0],"kind":"limit","length":80}}'),
    ("request", '{"op":"add_behavior","session":"tour","behavior":{"type":"attachment","item":"ball","to":"tri","kind":"fixed"}}'),
    ("request", '{"op":"add_behavior","session":"tour","behavior":{"type":"attachment","item":"ball","anchor":[1,2],"kind":"distance"}}'),
    ("request", '{"op":"add_behavior","session":"tour","behavior":{"type":"snap","item":"label","point":[10,20]}}'),
    (
        "request",
        '{"op":"add_behavior","session":"tour","behavior":{"type":"push","id":"kick","items":["ball"],'
        '"mode":"continuous","direction":[1,0],"offset":[0,5],"active":true}}',
    ),
    (
        "request",
        '{"op":"add_behavior","session":"tour","behavior":{"type":"dynamic_item","id":"props","items":["tri"],'
        '"elasticity":0.4,"friction":0.2,"density":0.1,"resistance":0.1,"angular_resistance":0.1,'
        '"allows_rotation":false,"anchored":false,"charge":-1}}',
    ),
    ("request", '{"op":"remove_behavior","session":"tour","behavior":"kick"}'),
    ("request", '{"op":"remove_all_behaviors","session":"tour"}'),
    ("request", '{"op":"set_behavior","session":"tour","behavior":"g","magnitude":8}'),
    ("request", '{"op":"set_behavior","session":"tour","behavior":"g","direction":[0,1],"items":["ball"]}'),
    ("request", '{"op":"set_behavior","session":"tour","behavior":"drag","anchor":[120,300],"length":0,"damping":2}'),
    ("request", '{"op":"set_behavior","session":"tour","behavior":"kick","active":true,"angle":3.14,"mode":"instantaneous"}'),
    ("request", '{"op":"set_behavior","session":"tour","behavior":"props","elasticity":1,"allows_rotation":true,"charge":0}'),
    ("request", '{"op":"set_behavior","session":"tour","behavior":"c","mode":"everything","boundaries":[]}'),
    ("request", '{"op":"set_behavior","session":"tour","behavior":"snap1","point":[1,1]}'),
    ("request", '{"op":"set_item","session":"tour","item":"ball","center":[100,100],"angle":0}'),
    ("request", '{"op":"set_item","session":"tour","item":"ball"}'),
    ("request", '{"op":"add_velocity","session":"tour","item":"ball","velocity":[0,-500],"angular":3.5}'),
    ("request", '{"op":"add_velocity","session":"tour","item":"ball"}'),
    ("request", '{"op":"behaviors","id":4,"session":"tour"}'),
    # --- replies
    ("reply", '{"ok":true}'),
    ("reply", '{"ok":true,"id":"g-7"}'),
    (
        "reply",
        '{"ok":true,"id":1,"protocol":1,"server":"dynd","version":"0.1.0",'
        '"transitions":["lock-screen","wave-pop","sidebar-menu"]}',
    ),
    (
        "reply",
        '{"ok":true,"protocol":1,"server":"dynd","version":"0.1.0+dev","transitions":[],'
        '"limits":{"max_line":1048576,"max_sessions":64}}',
    ),
    ("reply", '{"ok":true,"id":"o1","session":"s1","items":[' + S_A_SIZED + "]}"),
    ("reply", '{"ok":true,"id":"o1","session":"s1","items":[' + S_A_SIZED + '],"t":0,"running":false}'),
    ("reply", '{"ok":true,"t":1.5,"running":false,"items":[' + S_A_SIZED + "]}"),
    (
        "reply",
        '{"ok":true,"t":0,"running":false,"items":[' + S_A_SIZED + ','
        '{"id":"ball","center":[1,2],"angle":0,"velocity":[0,0],"angular_velocity":0,"size":[30,30],"shape":"ellipse"},'
        '{"id":"tri","center":[1,2],"angle":0,"velocity":[0,0],"angular_velocity":0,"size":[40,40],"shape":"path",'
        '"path":[[0,-20],[20,20],[-20,20]]}]}',
    ),
    ("reply", '{"ok":true,"items":[' + S_A + "," + S_B + "]}"),
    ("reply", '{"ok":true,"session":"s1","items":[]}'),
    ("reply", '{"ok":true,"id":3,"t":0.016667,"running":true}'),
    (
        "reply",
        '{"ok":true,"sessions":[{"session":"s1","transition":"lock-screen","clock":"realtime","running":true},'
        '{"session":"tour","transition":null,"clock":"manual","running":false}]}',
    ),
    ("reply", '{"ok":true,"sessions":[]}'),
    ("reply", '{"ok":true,"id":7,"behavior":"g"}'),
    (
        "reply",
        '{"ok":true,"id":1,"protocol":1,"server":"dynd","version":"0.1.0","transitions":["lock-screen","wave-pop"],'
        '"parameters":{"lock-screen":[{"name":"gravity","default":4,"min":0.1,"max":20,"unit":"× 1000 pt/s²",'
        '"source":"docs/TRANSITIONS.md"},{"name":"elasticity","default":0.4,"min":0,"max":1,"unit":"","source":"haawa799"}],'
        '"wave-pop":[{"name":"complete_rule","default":"velocity","choices":["velocity","position"],"source":"seed 002"},'
        '{"name":"mirrored","default":false,"source":"a boolean"}]}}',
    ),
    ("reply", '{"ok":true,"id":4,"behaviors":[]}'),
    (
        "reply",
        '{"ok":true,"id":4,"behaviors":['
        '{"type":"gravity","id":"b1","items":["box"],"direction":[0,1],"angle":1.570796,"magnitude":1},'
        '{"type":"collision","id":"walls","items":["box"],"mode":"boundaries","reference_bounds":true,"insets":[0,0,0,0],'
        '"boundaries":[{"id":"shelf","from":[0,200],"to":[320,200]},{"id":"ledge","path":[[0,300],[100,320],[200,300]]}]},'
        '{"type":"attachment","id":"rope","kind":"distance","item":"ball","offset":[0,0],"anchor":[200,50],'
        '"length":50,"damping":0.3,"frequency":2,"friction_torque":0,"range":null},'
        '{"type":"attachment","id":"pin","kind":"pin","item":"ball","to":"tri","anchor":[220,100],'
        '"length":40,"damping":0,"frequency":0,"friction_torque":0,"range":[-1,1]},'
        '{"type":"snap","id":"snap","item":"tri","point":[240,300],"damping":0.5},'
        '{"type":"push","id":"kick","items":["ball"],"mode":"instantaneous","direction":[1,0],"angle":0,'
        '"magnitude":1,"offset":[2,3],"active":true},'
        '{"type":"dynamic_item","id":"props","items":["tri"],"elasticity":0.5,"friction":0,"density":1,'
        '"resistance":0,"angular_resistance":0,"allows_rotation":true,"anchored":false,"charge":0}]}',
    ),
    (
        "reply",
        '{"ok":false,"id":3,"error":{"code":"unknown_field","message":"unknown field elasticty in behavior",'
        '"field":"elasticty"}}',
    ),
    ("reply", '{"ok":false,"error":{"code":"bad_json","message":"the line is not JSON"}}'),
    ("reply", '{"ok":false,"id":"x","error":{"code":"line_too_long","message":"line longer than 1048576 bytes"}}'),
    # --- events
    ("event", '{"ev":"frame","session":"s1","seq":1,"t":0.016667,"items":[' + S_A + "]}"),
    ("event", '{"ev":"frame","session":"s1","seq":42,"t":0.7,"items":[' + S_A + "," + S_B + '],"dropped":3}'),
    ("event", '{"ev":"frame","session":"menu","seq":2,"t":0.033,"items":[],"values":{"background_alpha":0.5}}'),
    ("event", '{"ev":"contact","session":"s1","phase":"began","item":"screen","boundary":"floor","point":[160,569]}'),
    ("event", '{"ev":"contact","session":"s1","phase":"began","item":"box","boundary":null,"point":[0,100]}'),
    ("event", '{"ev":"contact","session":"s1","phase":"began","item":"box","with":"ball","point":[5,6]}'),
    ("event", '{"ev":"contact","session":"s1","phase":"ended","item":"box","with":"ball"}'),
    ("event", '{"ev":"contact","session":"s1","phase":"ended","item":"box","boundary":null}'),
    ("event", '{"ev":"pause","session":"s1","t":2.5}'),
    ("event", '{"ev":"resume","session":"s1","t":3}'),
    ("event", '{"ev":"handoff","session":"s1","item":"screen","gesture_velocity":[0,-1200],"item_velocity":[0,-1200],"velocity_error":0}'),
    ("event", '{"ev":"handoff","session":"s1","item":"screen","gesture_velocity":[1234,-1400],"item_velocity":[0,-1400],"constraints":[{"kind":"rail","axis":[0,1]}],"velocity_error":0}'),
    ("event", '{"ev":"handoff","session":"s1","item":"photo","gesture_velocity":[50000,0],"item_velocity":[24000,0],"constraints":[{"kind":"speed_limit","max_speed":24000}],"velocity_error":0}'),
    ("event", '{"ev":"handoff","session":"s1","item":"screen","gesture_velocity":[0,-1200],"item_velocity":[0,-1200],"velocity_error":0,"estimate":{"reason":"estimated","samples":7}}'),
    ("event", '{"ev":"handoff","session":"s1","item":"screen","gesture_velocity":[0,0],"item_velocity":[0,0],"velocity_error":0,"estimate":{"reason":"pointer_stopped","samples":7,"still_ms":55}}'),
    ("event", '{"ev":"handoff","session":"s1","item":"screen","gesture_velocity":[0,0],"item_velocity":[0,0],"velocity_error":0,"estimate":{"reason":"too_few_samples","samples":0}}'),
    ("event", '{"ev":"done","session":"s1","outcome":"opened"}'),
    ("event", '{"ev":"done","session":"menu","outcome":"closed","values":{"background_alpha":0}}'),
    ("event", '{"ev":"shutdown","reason":"SIGTERM"}'),
    ("event", '{"ev":"slow","session":"S","t":0.5,"frame_ms":41.7,"budget_ms":16.667}'),
    ("event", '{"ev":"on_time","session":"S","t":2.5}'),
    ("event", '{"ev":"contact_limit","session":"S","t":0.017,"limit":16384}'),
    ("event", '{"ev":"frame","session":"S","seq":9,"t":0.15,"items":[],"dropped":3,"dropped_contacts":40}'),
    ("event", '{"ev":"closed","session":"lock","reason":"owner_left"}'),
    ("request", '{"op":"debug","session":"S","enable":false}'),
    ("reply", '{"ok":true,"debug":{"boundaries":[{"id":null,"rect":[0,0,320,568]},'
              '{"id":"ledge","points":[[0,300],[320,320]]}],"attachments":[{"kind":"distance",'
              '"item":"b","item_point":[200,100],"to":null,"to_point":[200,50],"spring":true,'
              '"length":50}],"snaps":[{"item":"b","point":[250,90]}],"pushes":[{"items":["a"],'
              '"mode":"continuous","vector":[0.5,0],"active":true}],"gravity":[{"items":["a"],'
              '"vector":[0,1]}],"fields":[],"groups":[],'
              '"contacts":[{"item":"a","boundary":null,"point":[319.75,238.1]}]}}'),
    ("event", '{"ev":"debug","session":"S","seq":41,"t":0.683,"boundaries":[],"attachments":[],'
              '"snaps":[],"pushes":[],"gravity":[],"fields":[],"groups":[],"contacts":[{"item":"a","with":"b"}]}'),
    # --- fields, regions, groups, composites, action rules (extensions)
    (
        "request",
        '{"op":"open","scene":{"bounds":[320,568],"items":[{"id":"a","center":[10,10],"size":[10,10]},{"id":"b","center":[30,10],"size":[10,10]}],'
        '"groups":[{"id":"pair","items":["a","b"]}],"behaviors":['
        '{"type":"field","id":"pull","kind":"radial_gravity","items":["pair"],"position":[160,284],'
        '"region":{"difference":[{"radius":100},{"inverse":{"size":[20,0]}}]},"strength":-2,"falloff":2,'
        '"minimum_radius":1,"direction":[0,0],"smoothness":0,"animation_speed":1,"seed":9007199254740992},'
        '{"type":"composite","id":"c","children":[{"type":"field","kind":"noise","region":{"infinite":true}},'
        '{"type":"composite","children":[]}],"action":[{"when":{"always":true},"then":[{"emit":"tick"}],"repeat":true}]},'
        '{"type":"gravity","items":["a"],"action":[{"when":{"item":"a","inside":[0,500,320,0]},'
        '"then":[{"set":{"behavior":"pull","strength":0,"region":{"union":[{"radius":1},{"radius":2}]}}},'
        '{"remove_behavior":"c"}]},{"when":{"item":"b","speed_below":0.5},"then":[{"emit":"rest"}]},'
        '{"when":{"item":"b","outside":[0,0,320,568]},"then":[{"emit":"out"}]},'
        '{"when":{"item":"b","speed_above":1000},"then":[{"emit":"fast"}]}]}]},"clock":"manual"}',
    ),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"field","kind":"vortex","items":["a"],'
        '"region":{"intersection":[{"radius":50},{"size":[10,10]}]}}}',
    ),
    (
        "request",
        '{"op":"set_behavior","session":"s","behavior":"pull","position":[1,2],"region":{"radius":3},"strength":4,'
        '"falloff":1,"minimum_radius":0,"smoothness":1,"animation_speed":0,"seed":7,"items":["a"]}',
    ),
    ("request", '{"op":"set_behavior","session":"s","behavior":"c","action":[]}'),
    ("request", '{"op":"add_group","session":"s","group":{"id":"g","items":["a"]}}'),
    ("request", '{"op":"remove_group","id":3,"session":"s","group":"g"}'),
    ("request", '{"op":"items_in_rect","session":"s","rect":[0,0,160,0]}'),
    ("request", '{"op":"set_bounds","session":"s","bounds":[320,568]}'),
    ("request", '{"op":"set_bounds","session":"s","bounds":[-10,0,300,500]}'),
    ("request", '{"op":"define","document":{"transition":"card","scene":{"items":[]}}}'),
    ("request", '{"op":"open","transition":"sheet","bounds":[412,915]}'),
    ("reply", '{"ok":true,"id":5,"items":["a","b"]}'),
    ("reply", '{"ok":true,"items":[]}'),
    ("reply", '{"ok":true,"t":0,"running":false,"items":[' + S_A_SIZED + '],"groups":[{"id":"g","items":["screen"]}]}'),
    (
        "reply",
        '{"ok":true,"behaviors":[{"type":"field","id":"pull","kind":"spring","items":["a"],"position":[1,2],'
        '"region":{"radius":3},"strength":1,"falloff":0,"minimum_radius":0.001,"direction":[0,0],"smoothness":0,'
        '"animation_speed":1,"seed":0,"action":[{"when":{"always":true},"then":[{"emit":"x"}]}]},'
        '{"type":"composite","id":"c","children":[{"type":"snap","id":"s","item":"a","point":[1,2],"damping":0.5}],'
        '"action":[{"when":{"item":"a","speed_above":10},"then":[{"set":{"behavior":"s","damping":1}}],"repeat":true}]}]}',
    ),
    (
        "reply",
        '{"ok":true,"debug":{"boundaries":[],"attachments":[],"snaps":[],"pushes":[],"gravity":[],'
        '"fields":[{"id":"pull","kind":"radial_gravity","position":[160,284],"region":{"inverse":{"radius":10}},'
        '"strength":-2,"items":["a"],"samples":[[0,0,1.5,-2],[10,0,0,0]]}],'
        '"groups":[{"id":"g","items":["a","b"],"center":[5,6],"angle":0.1,"size":[20,10]}],"contacts":[]}}',
    ),
    ("event", '{"ev":"action","session":"S","seq":12,"t":0.2,"behavior":"drop","name":"landed","item":"ball"}'),
    ("event", '{"ev":"action","session":"S","seq":1,"t":0,"behavior":"b1","name":"tick","item":null}'),
    (
        "event",
        '{"ev":"debug","session":"S","seq":2,"t":0.033,"boundaries":[],"attachments":[],"snaps":[],"pushes":[],'
        '"gravity":[],"fields":[{"id":"w","kind":"noise","position":[0,0],"region":{"infinite":true},"strength":1,'
        '"items":[],"samples":[]}],"groups":[],"contacts":[]}',
    ),
]

# (kind, line, why). Every one must fail when checked as its kind.
INVALID = [
    # --- requests
    ("request", '{"op":"open","transition":"lock-screen","scene":{}}', "open: transition and scene"),
    ("request", '{"op":"open"}', "open: neither transition nor scene"),
    ("request", '{"op":"open","session":"s"}', "open: neither transition nor scene"),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"dynamic_item","items":["a"],"elasticty":0.4}}',
        "typo elasticty",
    ),
    ("request", '{"op":"helo"}', "unknown op"),
    ("request", '{"id":1}', "no op"),
    ("request", '{"op":5}', "op not a string"),
    ("request", '{"op":"hello","session":"s"}', "hello takes no session"),
    ("request", '{"op":"hello","id":null}', "id null"),
    ("request", '{"op":"hello","id":true}', "id boolean"),
    ("request", '{"op":"hello","id":[1]}', "id array"),
    ("request", '{"op":"list","ok":true}', "ok in a request"),
    ("request", '{"op":"gesture","session":"s","phase":"moved","x":1,"y":2}', "unknown phase"),
    ("request", '{"op":"gesture","session":"s","phase":"began","x":1}', "gesture without y"),
    ("request", '{"op":"gesture","session":"s","phase":"began","x":"10","y":2}', "x as a string"),
    ("request", '{"op":"gesture","session":"s","phase":"ended","x":1,"y":2,"velocity":[0,1]}', "gesture velocity is vx/vy"),
    ("request", '{"op":"tap","x":1,"y":2}', "tap without session"),
    ("request", '{"op":"tap","session":"","x":1,"y":2}', "empty session name"),
    ("request", '{"op":"swipe","session":"s","direction":"diagonal"}', "unknown direction"),
    ("request", '{"op":"swipe","session":"s"}', "swipe without direction"),
    ("request", '{"op":"step","session":"s","count":0}', "count 0"),
    ("request", '{"op":"step","session":"s","count":1.5}', "fractional count"),
    ("request", '{"op":"step","session":"s","dt":0}', "dt 0"),
    ("request", '{"op":"step"}', "step without session"),
    ("request", '{"op":"get","session":"s","items":true}', "get takes only session"),
    ("request", '{"op":"open","transition":"x","clock":"virtual"}', "unknown clock"),
    ("request", '{"op":"open","transition":"x","fps":0}', "fps 0"),
    ("request", '{"op":"open","transition":"x","keep":"yes"}', "keep not a bool"),
    ("request", '{"op":"open","transition":"x","params":{"menuWidth":150}}', "camelCase param name"),
    ("request", '{"op":"open","scene":{"bounds":[320,568]},"params":{"rows":3}}', "params without transition"),
    ("request", '{"op":"open","scene":{"bounds":[320,568],"gravity":1}}', "unknown scene field"),
    ("request", '{"op":"open","scene":{"items":[{"id":"a","size":[0,10]}]}}', "zero width"),
    ("request", '{"op":"open","scene":{"items":[{"id":"a","size":[10]}]}}', "size with one number"),
    ("request", '{"op":"open","scene":{"bounds":[320,568,1]}}', "bounds with three numbers"),
    ("request", '{"op":"open","scene":{"bounds":[0,0,320,-568]}}', "negative bounds height"),
    ("request", '{"op":"open","scene":{"items":[{"id":"a","size":[1,1],"velocity":[0,0]}]}}', "velocity in an item"),
    ("request", '{"op":"add_item","session":"s","item":{"id":"a","size":[1,1],"shape":"triangle"}}', "unknown shape"),
    (
        "request",
        '{"op":"add_item","session":"s","item":{"id":"a","size":[1,1],"path":[[0,0],[1,0],[0,1]]}}',
        "path without shape path",
    ),
    (
        "request",
        '{"op":"add_item","session":"s","item":{"id":"a","size":[1,1],"shape":"ellipse","path":[[0,0],[1,0],[0,1]]}}',
        "path with shape ellipse",
    ),
    ("request", '{"op":"add_item","session":"s","item":{"id":"a","size":[1,1],"shape":"path"}}', "shape path without path"),
    ("request", '{"op":"add_item","session":"s","item":{"id":"a","center":[0,0]}}', "item without size"),
    ("request", '{"op":"add_item","session":"s","item":{"center":[0,0],"size":[1,1]}}', "item without id"),
    ("request", '{"op":"remove_item","session":"s","item":{"id":"a"}}', "remove_item takes an id"),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":["a"],"direction":[0,1],"angle":1}}',
        "gravity: direction and angle",
    ),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":["a"],"direction":[0,1],"magnitude":2}}',
        "gravity: direction and magnitude",
    ),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":"a"}}', "items not an array"),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"push","items":["a"],"mode":"continuous",'
        '"direction":[1,0],"angle":0,"magnitude":1}}',
        "push: direction and angle + magnitude",
    ),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"push","items":["a"],"mode":"everything"}}', "collision mode on push"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"collision","items":["a"],"mode":"all"}}', "unknown collision mode"),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"collision","items":["a"],'
        '"boundaries":[{"id":"b","from":[0,0],"to":[1,1],"path":[[0,0],[1,1]]}]}}',
        "boundary with from/to and path",
    ),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"collision","items":["a"],"boundaries":[{"id":"b","from":[0,0]}]}}',
        "boundary with from only",
    ),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"collision","items":["a"],"boundaries":[{"from":[0,0],"to":[1,1]}]}}',
        "boundary without id",
    ),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"collision","items":["a"],"reference_bounds":false,"insets":[0,0,0,0]}}',
        "insets with reference_bounds false",
    ),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"collision","items":["a"],"insets":[0,0,0]}}',
        "insets with three numbers",
    ),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"attachment","item":"a","to":"b","anchor":[0,0]}}',
        "attachment: to and anchor",
    ),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"attachment","item":"a"}}', "attachment: neither"),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"attachment","item":"a","anchor":[0,0],"kind":"spring"}}',
        "unknown attachment kind",
    ),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"attachment","item":"a","anchor":[0,0],"frictionTorque":1}}',
        "camelCase frictionTorque",
    ),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"snap","item":"a"}}', "snap without point"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"snap","item":"a","point":[0,0],"damping":1.5}}', "snap damping above 1"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"snap","items":["a"],"point":[0,0]}}', "snap takes item, not items"),
    (
        "request",
        '{"op":"add_behavior","session":"s","behavior":{"type":"dynamic_item","items":["a"],"allowsRotation":false}}',
        "camelCase allowsRotation",
    ),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"dynamic_item","items":["a"],"density":0}}', "density 0"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"dynamic_item","items":["a"],"anchored":1}}', "anchored not a bool"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","items":["a"]}}', "unknown behavior type"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"items":["a"]}}', "behavior without type"),
    ("request", '{"op":"set_behavior","session":"s","behavior":"g","type":"gravity"}', "type is not settable"),
    ("request", '{"op":"set_behavior","session":"s","behavior":"g","elasticty":1}', "set_behavior typo"),
    ("request", '{"op":"set_behavior","session":"s","behavior":"g","direction":[0,1],"angle":0}', "set_behavior direction and angle"),
    ("request", '{"op":"set_behavior","session":"s","behavior":"g","to":"b","anchor":[0,0]}', "set_behavior to and anchor"),
    ("request", '{"op":"set_behavior","session":"s","magnitude":1}', "set_behavior without behavior"),
    ("request", '{"op":"set_behavior","session":"s","behavior":"p","mode":"sideways"}', "unknown mode"),
    ("request", '{"op":"set_item","session":"s","item":"a","velocity":[0,0]}', "set_item has no velocity"),
    ("request", '{"op":"add_velocity","session":"s","item":"a","velocity":[1,2,3]}', "velocity with three numbers"),
    ("request", '{"op":"add_velocity","session":"s","item":"a","angular_velocity":1}', "add_velocity's field is angular"),
    ("request", '{"op":"tap","session":"s","x":NaN,"y":1}', "NaN"),
    ("request", '{"op":"tap","session":"s","x":Infinity,"y":1}', "Infinity"),
    ("request", '{"op":"tap","session":"s","x":1e400,"y":1}', "overflowing number"),
    ("request", '{"op":"tap","session":"s","x":1,"x":2,"y":1}', "duplicate key"),
    ("request", '{"op":"tap","session":"s","x":1,"y":1', "truncated JSON"),
    ("request", "[1,2]", "not an object"),
    # --- replies
    ("reply", '{"ok":false,"error":{"code":"oops","message":"x"}}', "code outside the list"),
    ("reply", '{"ok":false,"error":{"code":"unknown_field","message":""}}', "empty message"),
    ("reply", '{"ok":false,"error":{"code":"unknown_field"}}', "no message"),
    ("reply", '{"ok":false,"error":{"code":"busy","message":"busy","detail":1}}', "unknown error field"),
    ("reply", '{"ok":false,"id":1}', "failure without error"),
    ("reply", '{"ok":false,"session":"s","error":{"code":"busy","message":"m"}}', "failure with data"),
    ("reply", '{"ok":true,"error":{"code":"busy","message":"m"}}', "success with error"),
    ("reply", '{"ok":"true"}', "ok as a string"),
    ("reply", '{"ok":true,"id":null}', "id null"),
    ("reply", '{"ok":true,"protocol":2,"server":"dynd","version":"1","transitions":[]}', "protocol 2"),
    ("reply", '{"ok":true,"protocol":1,"server":"other","version":"1","transitions":[]}', "server not dynd"),
    ("reply", '{"ok":true,"protocol":1,"server":"dynd","transitions":[]}', "hello without version"),
    ("reply", '{"ok":true,"protocol":1,"server":"dynd","version":"1","transitions":"lock-screen"}', "transitions not an array"),
    ("reply", '{"ok":true,"protocol":1,"server":"dynd","version":"1","transitions":[],"limits":{"max_line":"1M"}}', "limit not a number"),
    ("reply", '{"ok":true,"sessions":[{"session":"s","transition":5,"clock":"manual","running":true}]}', "transition a number"),
    ("reply", '{"ok":true,"sessions":[{"session":"s","transition":null,"running":true}]}', "session without clock"),
    ("reply", '{"ok":true,"sessions":[{"session":"s","transition":null,"clock":"fast","running":true}]}', "unknown clock"),
    ("reply", '{"ok":true,"t":1}', "t without running"),
    ("reply", '{"ok":true,"t":-1,"running":true}', "negative time"),
    (
        "reply",
        '{"ok":true,"t":0,"running":false,"items":[{"id":"a","center":[1,2],"angle":0,"velocity":[0,0],'
        '"angular_velocity":0,"size":[4,4],"shape":"path"}]}',
        "shape path without path",
    ),
    (
        "reply",
        '{"ok":true,"t":0,"running":false,"items":[{"id":"a","center":[1,2],"angle":0,"velocity":[0,0],'
        '"angular_velocity":0,"size":[4,4],"shape":"ellipse","path":[[0,-2],[2,2],[-2,2]]}]}',
        "path on an ellipse",
    ),
    (
        "reply",
        '{"ok":true,"t":0,"running":false,"items":[{"id":"a","center":[1,2],"angle":0,"velocity":[0,0],'
        '"angular_velocity":0,"size":[4,4],"shape":"rectangle"}]}',
        "a rectangle's shape written out",
    ),
    ("reply", '{"ok":true,"items":[' + S_A_SIZED + "," + S_B + "]}", "sizes on some items only"),
    (
        "reply",
        '{"ok":true,"items":[{"id":"a","center":[0,0],"angle":0,"velocity":[0,0]}]}',
        "item state without angular_velocity",
    ),
    (
        "reply",
        '{"ok":true,"items":[{"id":"a","center":[0,0],"angle":0,"velocity":[0,0,0],"angular_velocity":0}]}',
        "velocity with three numbers",
    ),
    ("reply", '{"ok":true,"behavior":7}', "behavior id a number"),
    ("reply", '{"ok":true,"ev":"frame"}', "ev in a reply"),
    # --- events
    ("event", '{"ev":"frame","ok":true,"session":"s","seq":1,"t":0,"items":[]}', "frame with ok"),
    ("event", '{"ev":"frame","session":"s","seq":0,"t":0,"items":[]}', "seq 0"),
    ("event", '{"ev":"frame","session":"s","seq":1.5,"t":0,"items":[]}', "fractional seq"),
    ("event", '{"ev":"frame","session":"s","seq":1,"t":0,"items":[],"dropped":0}', "dropped 0"),
    ("event", '{"ev":"frame","session":"s","seq":1,"t":0,"items":[],"values":{"background_alpha":"0.5"}}', "value not a number"),
    ("event", '{"ev":"frame","session":"s","seq":1,"t":0,"items":[' + S_A_SIZED + "]}", "size in a frame"),
    ("event", '{"ev":"frame","session":"s","seq":1,"items":[]}', "frame without t"),
    ("event", '{"ev":"frame","session":"s","seq":1,"t":-0.5,"items":[]}', "negative time"),
    (
        "event",
        '{"ev":"contact","session":"s","phase":"began","item":"a","with":"b","boundary":null,"point":[1,2]}',
        "contact: with and boundary",
    ),
    ("event", '{"ev":"contact","session":"s","phase":"ended","item":"a"}', "contact: neither with nor boundary"),
    ("event", '{"ev":"contact","session":"s","phase":"began","item":"a","with":"b"}', "began without point"),
    ("event", '{"ev":"contact","session":"s","phase":"ended","item":"a","boundary":null,"point":[1,2]}', "ended with point"),
    ("event", '{"ev":"contact","session":"s","phase":"changed","item":"a","with":"b"}', "unknown contact phase"),
    ("event", '{"ev":"contact","session":"s","phase":"ended","item":"a","boundary":5}', "boundary a number"),
    ("event", '{"ev":"contact","session":"s","phase":"ended","item":"a","with":null}', "with null"),
    ("event", '{"ev":"pause","session":"s"}', "pause without t"),
    ("event", '{"ev":"resume","session":"s","t":1,"reason":"gesture"}', "resume with extra field"),
    ("event", '{"ev":"handoff","session":"s","item":"a","gesture_velocity":[0,1]}', "handoff without item_velocity"),
    ("event", '{"ev":"handoff","session":"s","item":"a","gesture_velocity":[0,1],"item_velocity":0}', "item_velocity not a vector"),
    ("event", '{"ev":"handoff","session":"s","item":"a","gesture_velocity":[0,1],"item_velocity":[0,1],"velocity_error":0,"constraints":[{"kind":"rail"}]}', "rail without axis"),
    ("event", '{"ev":"handoff","session":"s","item":"a","gesture_velocity":[0,1],"item_velocity":[0,1],"velocity_error":0,"constraints":[]}', "empty constraints"),
    ("event", '{"ev":"handoff","session":"s","item":"a","gesture_velocity":[0,1],"item_velocity":[0,1],"velocity_error":-1}', "negative velocity_error"),
    ("event", '{"ev":"handoff","session":"s","item":"a","gesture_velocity":[0,0],"item_velocity":[0,0],"velocity_error":0,"estimate":{"reason":"guessed","samples":2}}', "estimate of an unknown reason"),
    ("event", '{"ev":"handoff","session":"s","item":"a","gesture_velocity":[0,0],"item_velocity":[0,0],"velocity_error":0,"estimate":{"reason":"pointer_stopped","samples":2}}', "pointer_stopped without still_ms"),
    ("event", '{"ev":"handoff","session":"s","item":"a","gesture_velocity":[0,1],"item_velocity":[0,1],"velocity_error":0,"estimate":{"reason":"estimated","samples":2,"still_ms":50}}', "still_ms on an estimated release"),
    ("event", '{"ev":"handoff","session":"s","item":"a","gesture_velocity":[0,1],"item_velocity":[0,1],"velocity_error":0,"estimate":{"reason":"estimated"}}', "estimate without samples"),
    ("event", '{"ev":"done","session":"s"}', "done without outcome"),
    ("event", '{"ev":"shutdown"}', "shutdown without reason"),
    ("event", '{"ev":"slow","session":"S","t":0.5,"frame_ms":41.7}', "slow without budget_ms"),
    ("event", '{"ev":"contact_limit","session":"S","t":0,"limit":-1}', "negative contact limit"),
    ("event", '{"ev":"frame","session":"S","seq":1,"t":0,"items":[],"dropped_contacts":0}', "dropped_contacts 0"),
    ("event", '{"ev":"closed","session":"lock","reason":"bored"}', "closed with an unknown reason"),
    ("request", '{"op":"debug","session":"S","enable":"yes"}', "debug enable not a boolean"),
    ("event", '{"ev":"debug","session":"S","seq":1,"t":0,"boundaries":[],"attachments":[],'
              '"snaps":[],"pushes":[],"gravity":[]}', "debug without contacts"),
    ("event", '{"ev":"debug","session":"S","seq":1,"t":0,"boundaries":[{"id":"x","points":[[0,0]]}],'
              '"attachments":[],"snaps":[],"pushes":[],"gravity":[],"contacts":[]}',
     "debug boundary of one point"),
    ("event", '{"ev":"closed","reason":"closed"}', "closed without a session"),
    ("event", '{"ev":"tick","session":"s"}', "unknown event"),
    ("event", '{"ev":"frame","session":"s","seq":1,"t":0,"items":[],"id":1}', "id in an event"),
    ("request", '{"op":"behaviors","session":"s","behavior":"b1"}', "behaviors takes only a session"),
    ("request", '{"op":"behaviors"}', "behaviors without session"),
    (
        "reply",
        '{"ok":true,"behaviors":[{"type":"snap","id":"s","item":"a","point":[1,2]}]}',
        "behaviors: a snap without its damping",
    ),
    (
        "reply",
        '{"ok":true,"behaviors":[{"type":"gravity","id":"g","items":["a"],"direction":[0,1],"angle":1,'
        '"magnitude":1,"elasticity":0}]}',
        "behaviors: a field gravity does not have",
    ),
    (
        "reply",
        '{"ok":true,"behaviors":[{"type":"attachment","id":"r","kind":"distance","item":"a","anchor":[0,0],'
        '"length":1,"damping":0,"frequency":0,"friction_torque":0}]}',
        "behaviors: an attachment without its range",
    ),
    (
        "reply",
        '{"ok":true,"protocol":1,"server":"dynd","version":"1","transitions":[],'
        '"parameters":{"t":[{"name":"x","default":1,"min":0,"max":2,"source":"s"}]}}',
        "parameters: a number without its unit",
    ),
    (
        "reply",
        '{"ok":true,"protocol":1,"server":"dynd","version":"1","transitions":[],'
        '"parameters":{"t":[{"name":"x","default":"a","choices":["a"],"unit":"","source":"s"}]}}',
        "parameters: a choice with a unit",
    ),
    ("reply", '{"ok":true,"parameters":{}}', "parameters without the rest of hello"),
    # --- fields, regions, groups, composites, action rules
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","items":["a"]}}', "field without kind"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","kind":"custom"}}', "field of the custom kind"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","kind":"drag","mode":"x"}}', "field with a push's mode"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","kind":"drag","smoothness":2}}', "smoothness above 1"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","kind":"noise","seed":1.5}}', "seed not a whole number"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","kind":"drag","region":{}}}', "empty region"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","kind":"drag","region":{"radius":1,"size":[1,1]}}}', "region with two keys"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","kind":"drag","region":{"infinite":false}}}', "infinite false"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","kind":"drag","region":{"union":[{"radius":1}]}}}', "union of one region"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"field","kind":"drag","region":{"radius":-1}}}', "negative radius"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"composite","children":{}}}', "children not a list"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"composite","items":["a"]}}', "composite with items"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":[],"action":[{"when":{"always":true},"then":[]}]}}', "rule without effects"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":[],"action":[{"when":{"always":true,"item":"a"},"then":[{"emit":"x"}]}]}}', "always with an item"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":[],"action":[{"when":{"item":"a","inside":[0,0,1,1],"speed_below":1},"then":[{"emit":"x"}]}]}}', "two conditions"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":[],"action":[{"when":{"item":"a","speed_below":-1},"then":[{"emit":"x"}]}]}}', "negative speed"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":[],"action":[{"when":{"always":true},"then":[{"emit":"x","remove_behavior":"b"}]}]}}', "effect with two keys"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":[],"action":[{"when":{"always":true},"then":[{"set":{"behavior":"b","action":[]}}]}]}}', "a rule setting rules"),
    ("request", '{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":[],"action":[{"when":{"always":true},"then":[{"set":{"strength":1}}]}]}}', "set without behavior"),
    ("request", '{"op":"open","scene":{"groups":[{"id":"g","items":[]}]}}', "group without items"),
    ("request", '{"op":"open","scene":{"groups":[{"id":"g"}]}}', "group without its items field"),
    ("request", '{"op":"add_group","session":"s","group":"g"}', "add_group with a name"),
    ("request", '{"op":"remove_group","session":"s"}', "remove_group without group"),
    ("request", '{"op":"items_in_rect","session":"s","rect":[0,0,1]}', "items_in_rect rect of 3"),
    ("request", '{"op":"items_in_rect","session":"s","rect":[0,0,-1,1]}', "items_in_rect negative width"),
    ("request", '{"op":"set_bounds","session":"s","bounds":[0,1]}', "set_bounds of zero width"),
    ("request", '{"op":"set_bounds","session":"s"}', "set_bounds without bounds"),
    ("request", '{"op":"define","document":[]}', "define of a non-object"),
    ("request", '{"op":"open","transition":"sheet","bounds":[50,915]}', "transition bounds of 50"),
    ("request", '{"op":"open","scene":{},"bounds":[400,400]}', "bounds with a scene"),
    ("reply", '{"ok":true,"items":["a",{"id":"b"}]}', "items of names and states"),
    ("reply", '{"ok":true,"groups":[{"id":"g","items":["a"]}]}', "groups without the rest of get"),
    (
        "reply",
        '{"ok":true,"behaviors":[{"type":"field","id":"f","kind":"drag","items":[],"position":[0,0],"strength":1}]}',
        "behaviors: a field without its settable fields",
    ),
    ("reply", '{"ok":true,"behaviors":[{"type":"composite","id":"c"}]}', "behaviors: a composite without children"),
    ("event", '{"ev":"action","session":"S","seq":1,"t":0,"behavior":"b","name":"n"}', "action without item"),
    ("event", '{"ev":"action","session":"S","seq":1,"t":0,"name":"n","item":null}', "action without behavior"),
    (
        "event",
        '{"ev":"debug","session":"S","seq":1,"t":0,"boundaries":[],"attachments":[],"snaps":[],"pushes":[],'
        '"gravity":[],"fields":[{"id":"f","kind":"drag","position":[0,0],"region":{"radius":1},"strength":1,'
        '"items":[],"samples":[[0,0,1]]}],"groups":[],"contacts":[]}',
        "debug field sample of three numbers",
    ),
    (
        "event",
        '{"ev":"debug","session":"S","seq":1,"t":0,"boundaries":[],"attachments":[],"snaps":[],"pushes":[],'
        '"gravity":[],"contacts":[]}',
        "debug without fields and groups",
    ),
]

# Codes dynd adds to the core's (PROTOCOL.md section 8).
EXTENSION_ERROR_CODES = ["line_timeout", "conflicting_fields", "evicted"]

ERROR_CODES = [
    "bad_json", "not_an_object", "missing_field", "unknown_field", "wrong_type", "invalid_number",
    "out_of_range", "unknown_op", "unknown_transition", "unknown_session", "session_exists",
    "unknown_item", "unknown_behavior", "invalid_scene", "line_too_long", "busy",
]

# Names this project adds to the **core** sections of protocol/PROTOCOL.md (extensions; the core
# itself is unchanged).
EXTENSION_NAMES = {
    "dropped", "values", "limits", "shutdown", "reason", "field", "owner_left", "idle",
    "debug", "enable", "boundaries", "attachments", "snaps", "pushes", "contacts", "rect", "points",
    "item_point", "to_point", "spring", "vector",
    "constraints", "rail", "speed_limit", "max_speed", "velocity_error",
    "estimate", "estimated", "pointer_stopped", "too_few_samples", "stale_samples", "degenerate_fit",
    "limited", "samples", "still_ms",
    "estimator", "platform", "linear",
    "slow", "on_time", "contact_limit", "line_timeout", "frame_ms", "budget_ms", "limit", "dropped_contacts",
    "parameters", "name", "default", "min", "max", "unit", "source", "choices", "behaviors",
    # fields, regions, item groups, composites, action rules
    "composite", "linear_gravity", "radial_gravity", "noise", "turbulence", "electric", "magnetic",
    "vortex", "region", "strength", "falloff", "minimum_radius", "smoothness", "animation_speed",
    "infinite", "radius", "inverse", "union", "intersection", "difference", "groups",
    "add_group", "remove_group", "items_in_rect", "set_bounds", "emit", "speed_below",
    "speed_above",
}


def load_schemas():
    schemas = {}
    for kind in schema_check.KINDS:
        with open(os.path.join(SCHEMA_DIR, kind + ".json"), encoding="utf-8") as f:
            schemas[kind] = json.load(f)
    return schemas


def find_core_doc():
    """$DYND_PROTOCOL_CORE if set, else protocol/PROTOCOL.md (its sections marked **core**)."""
    candidates = [
        os.environ.get("DYND_PROTOCOL_CORE", ""),
        os.path.join(REPO, "protocol", "PROTOCOL.md"),
    ]
    for path in candidates:
        if path and os.path.isfile(path):
            return path
    return None


def walk(node, visit):
    visit(node)
    if isinstance(node, dict):
        for value in node.values():
            walk(value, visit)
    elif isinstance(node, list):
        for value in node:
            walk(value, visit)


class SchemaFiles(unittest.TestCase):
    def test_schemas_are_valid_draft_2020_12(self):
        for kind, schema in load_schemas().items():
            with self.subTest(kind=kind):
                self.assertEqual(schema["$schema"], "https://json-schema.org/draft/2020-12/schema")
                schema_check.Draft202012Validator.check_schema(schema)

    def test_error_codes_are_the_core_list_and_the_extensions(self):
        enum = load_schemas()["reply"]["$defs"]["failure"]["properties"]["error"]["properties"]["code"]["enum"]
        self.assertEqual(enum, ERROR_CODES + EXTENSION_ERROR_CODES)

    def test_names_match_the_core_document(self):
        doc_path = find_core_doc()
        if doc_path is None:
            self.skipTest("protocol/PROTOCOL.md not found (set DYND_PROTOCOL_CORE)")
        with open(doc_path, encoding="utf-8") as f:
            doc = f.read()
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_-]*", doc))
        names = set()

        def visit(node):
            if not isinstance(node, dict):
                return
            names.update(node.get("properties", {}).keys())
            names.update(node.get("required", []))
            for key in ("const", "enum"):
                values = node.get(key)
                values = values if isinstance(values, list) else [values]
                names.update(v for v in values if isinstance(v, str))

        for schema in load_schemas().values():
            walk(schema, visit)
        unknown = sorted(n for n in names - words if n not in EXTENSION_NAMES)
        self.assertEqual(unknown, [], "names in the schemas but not in %s" % doc_path)

        # The core's error-code sentence lists exactly the codes of reply.json.
        sentence = doc[doc.index("Error codes every implementation must use") :]
        sentence = sentence[: sentence.index("\n\n")]
        sentence = re.sub(r"\([^)]*\)", "", sentence)  # "(… a typo such as `elasticty` …)"
        self.assertEqual(re.findall(r"`([a-z_]+)`", sentence), ERROR_CODES)


class Samples(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.validators = schema_check.load_validators(SCHEMA_DIR)

    def test_enough_samples(self):
        self.assertGreaterEqual(len(VALID), 40)
        self.assertGreaterEqual(len(INVALID), 40)

    def test_valid_samples_pass(self):
        for kind, line in VALID:
            with self.subTest(line=line):
                self.assertEqual(schema_check.check_line(line, kind, self.validators), (kind, []))
                self.assertEqual(schema_check.check_line(line, "auto", self.validators), (kind, []))

    def test_valid_samples_fail_as_another_kind(self):
        for kind, line in VALID:
            for other in schema_check.KINDS:
                if other != kind:
                    with self.subTest(line=line, other=other):
                        self.assertNotEqual(schema_check.check_line(line, other, self.validators)[1], [])

    def test_invalid_samples_fail(self):
        for kind, line, why in INVALID:
            with self.subTest(why=why, line=line):
                used, problems = schema_check.check_line(line, kind, self.validators)
                self.assertTrue(problems, "expected a failure: " + why)
                self.assertEqual(len(problems), 1)
                self.assertTrue(problems[0].strip())
                self.assertNotEqual(schema_check.check_line(line, "auto", self.validators)[1], [])

    def test_every_error_code_is_a_valid_reply(self):
        for code in ERROR_CODES + EXTENSION_ERROR_CODES:
            line = json.dumps({"ok": False, "id": code, "error": {"code": code, "message": "m", "field": "f"}})
            self.assertEqual(schema_check.check_line(line, "reply", self.validators), ("reply", []))

    def test_valid_samples_cover_every_op_and_event(self):
        schemas = load_schemas()
        ops = set(schemas["request"]["properties"]["op"]["enum"])
        evs = set(schemas["event"]["properties"]["ev"]["enum"])
        seen_ops = {json.loads(line)["op"] for kind, line in VALID if kind == "request"}
        seen_evs = {json.loads(line)["ev"] for kind, line in VALID if kind == "event"}
        self.assertEqual(ops - seen_ops, set())
        self.assertEqual(evs - seen_evs, set())
        seen_types = set()
        for kind, line in VALID:
            obj = json.loads(line)
            behaviors = [obj.get("behavior")] + obj.get("scene", {}).get("behaviors", [])
            seen_types.update(b["type"] for b in behaviors if isinstance(b, dict))
        self.assertEqual(
            seen_types,
            {"gravity", "collision", "attachment", "snap", "push", "dynamic_item", "field", "composite"},
        )

    def test_messages_name_the_problem(self):
        cases = [
            (
                '{"op":"add_behavior","session":"s","behavior":{"type":"dynamic_item","items":["a"],"elasticty":0.4}}',
                ["$.behavior", "elasticty"],
            ),
            ('{"op":"open","transition":"t","scene":{}}', ["transition", "scene"]),
            ('{"ev":"contact","session":"s","phase":"ended","item":"a","with":"b","boundary":null}', ["with", "boundary"]),
            ('{"ev":"frame","ok":true,"session":"s","seq":1,"t":0,"items":[]}', ["ok"]),
            ('{"ok":false,"error":{"code":"oops","message":"x"}}', ["$.error.code", "oops"]),
            ('{"op":"tap","session":"s","x":NaN,"y":1}', ["NaN"]),
        ]
        for line, needles in cases:
            with self.subTest(line=line):
                _, problems = schema_check.check_line(line, "auto", self.validators)
                for needle in needles:
                    self.assertIn(needle, problems[0])


class DocumentSchema(unittest.TestCase):
    """protocol/schema/transition.json: the example documents pass; broken shapes fail."""

    @classmethod
    def setUpClass(cls):
        with open(os.path.join(SCHEMA_DIR, "transition.json"), encoding="utf-8") as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        cls.validator = Draft202012Validator(schema)
        cls.examples = os.path.join(os.path.dirname(SCHEMA_DIR), "..", "examples", "transitions")

    def test_the_example_documents_pass(self):
        built_ins = os.path.join(self.examples, "built-ins")
        paths = sorted(os.path.join(folder, n) for folder in (self.examples, built_ins)
                       for n in os.listdir(folder) if n.endswith(".json"))
        self.assertGreaterEqual(len(paths), 8)
        for path in paths:
            with open(path, encoding="utf-8") as f:
                errors = list(self.validator.iter_errors(json.load(f)))
            self.assertEqual(errors, [], path)

    def test_broken_shapes_fail(self):
        scene = {"items": []}
        for document in [
                {"transition": "t", "scene": scene, "colour": 1},
                {"transition": "t", "scene": {"bounds": [320, 568], "items": []}},
                {"transition": "t", "scene": scene, "parameters": [{"name": "Speed", "default": 1, "min": 0, "max": 2}]},
                {"transition": "t", "scene": scene, "parameters": [{"name": "s", "default": "width", "min": 0, "max": 2}]},
                {"transition": "t", "scene": scene, "release": [{"then": [{"add_behavior": {}, "remove_behavior": "a"}]}]},
                {"transition": "t", "scene": scene, "done": [{"outcome": "x"}]},
                {"transition": "t", "scene": scene, "phases": []},
                {"transition": "t", "scene": scene, "projection": {"drag": 0.1, "friction": 1}},
                {"transition": "t", "scene": scene, "release": [{"then": [{"let": {}}]}]},
                {"transition": "t", "scene": scene, "swipe": [{"handoff": {"detent": "x"}}]},
                {"transition": "t", "scene": scene, "pan": {"axis": "z"}},
                {"transition": "t", "scene": scene, "release": [{"then": []}] * 33}]:
            self.assertNotEqual(list(self.validator.iter_errors(document)), [], document)


class CommandLine(unittest.TestCase):
    def run_checker(self, *args, stdin=None, env=None):
        return subprocess.run(
            [sys.executable, CHECKER, *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
        )

    def write(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8")
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_all_valid_samples_pass_and_exit_0(self):
        path = self.write("".join(line + "\n" for _, line in VALID))
        result = self.run_checker(path)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(result.stdout.splitlines(), ["%d passed, 0 failed" % len(VALID)])

    def test_failures_are_reported_by_line_and_exit_1(self):
        lines = [VALID[0][1], INVALID[0][1], "", VALID[1][1], INVALID[3][1]]
        path = self.write("\n".join(lines) + "\n")
        result = self.run_checker("--kind", "request", path)
        self.assertEqual(result.returncode, 1)
        out = result.stdout.splitlines()
        self.assertEqual(out[-1], "2 passed, 2 failed")
        self.assertEqual(len(out), 3)
        self.assertTrue(out[0].startswith(path + ":2: request: "), out[0])
        self.assertTrue(out[1].startswith(path + ":5: request: "), out[1])
        self.assertIn("elasticty", out[1])

    def test_stdin_and_several_files(self):
        path = self.write(VALID[0][1] + "\n")
        result = self.run_checker(path, "-", stdin='{"ev":"pause","session":"s","t":1}\n{"ev":"pause"}\n')
        self.assertEqual(result.returncode, 1)
        out = result.stdout.splitlines()
        self.assertEqual(out[-1], "2 passed, 1 failed")
        self.assertTrue(out[0].startswith("<stdin>:2: event: "), out[0])

    def test_explicit_kind_overrides_auto(self):
        result = self.run_checker("--kind", "event", "-", stdin='{"op":"hello"}\n')
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout.splitlines()[-1], "0 passed, 1 failed")

    def test_invalid_utf8_fails(self):
        result = subprocess.run([sys.executable, CHECKER, "-"], input=b'{"op":"hello","id":"\xff"}\n', capture_output=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn(b"UTF-8", result.stdout)

    def test_missing_file_is_a_usage_error(self):
        result = self.run_checker(os.path.join(tempfile.gettempdir(), "no-such-dynd-file.jsonl"))
        self.assertEqual(result.returncode, 2)

    def test_missing_jsonschema_says_how_to_install(self):
        blocker = (
            "import sys, runpy\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'jsonschema' or name.startswith('jsonschema.'):\n"
            "            raise ImportError('blocked for the test')\n"
            "sys.meta_path.insert(0, Block())\n"
            "sys.argv = [sys.argv[1], '-']\n"
            "runpy.run_path(sys.argv[0], run_name='__main__')\n"
        )
        result = subprocess.run(
            [sys.executable, "-c", blocker, CHECKER], input="", capture_output=True, text=True
        )
        self.assertEqual(result.returncode, 2)
        self.assertIn("pip install jsonschema", result.stderr)


if __name__ == "__main__":
    unittest.main()
