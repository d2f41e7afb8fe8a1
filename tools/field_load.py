#!/usr/bin/env python3
"""The heaviest field load a scene may hold (1 000 items under 8 fields: 8 000 of the 8 192
field-item pairs a session may hold, Limits.maxFieldItemPairs): how long its frames take and what
another client waits meanwhile.
Usage: tools/field_load.py BIN_DIR KIND (noise, drag, vortex, ...)."""
import json, socket, subprocess, sys, time, os, tempfile
d=tempfile.mkdtemp(); sock=os.path.join(d,"s")
p=subprocess.Popen([sys.argv[1]+"/dynd","--socket",sock],stderr=subprocess.DEVNULL)
time.sleep(1)
c=socket.socket(socket.AF_UNIX); c.connect(sock); f=c.makefile("r")
def req(o):
    c.sendall((json.dumps(o)+"\n").encode())
    while True:
        m=json.loads(f.readline())
        if "ok" in m: return m
items=[{"id":"i%d"%k,"center":[10+k%300,10+k//300*20],"size":[5,5]} for k in range(1000)]
ids=[i["id"] for i in items]
kind=sys.argv[2]
beh=[{"type":"field","kind":kind,"items":ids,"strength":1,"smoothness":0.5,"animation_speed":2,"region":{"union":[{"radius":200},{"inverse":{"size":[10,10]}}]}} for _ in range(8)]
r=req({"op":"open","id":1,"session":"x","clock":"manual","scene":{"items":items,"behaviors":beh}})
assert r["ok"], r
# second connection measures hello latency during the step
c2=socket.socket(socket.AF_UNIX); c2.connect(sock); f2=c2.makefile("r")
t=time.time(); c.sendall(b'{"op":"step","id":2,"session":"x","count":10}\n')
worst=0; n=0
import select
while True:
    t1=time.time(); c2.sendall(b'{"op":"list","id":1}\n'); f2.readline(); worst=max(worst,time.time()-t1); n+=1
    rd,_,_=select.select([c],[],[],0)
    if rd:
        done=False
        while True:
            m=json.loads(f.readline())
            if "ok" in m: done=True; break
        if done: break
dt=time.time()-t
print("during the step: another client's list worst", round(worst*1000,2),"ms over", n)
print(kind, "10 frames of 1000 items x 8 fields:", round(dt*1000,1),"ms; per frame", round(dt*100,1),"ms")
worst=0
for _ in range(20):
    t=time.time(); c2.sendall(b'{"op":"list","id":1}\n'); f2.readline(); worst=max(worst,time.time()-t)
print("another client's list meanwhile (idle): worst", round(worst*1000,2),"ms")
p.terminate()
