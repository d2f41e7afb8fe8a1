// The world: creation, the step, queued contact events and the group contact filter.
#include <algorithm>
#include <new>

#include "shim_world.hpp"

using namespace cbox2d;

namespace {

bool intersects(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j) return true;
    if (*i < *j) ++i; else ++j;
  }
  return false;
}

bool itemMeetsBoundary(const BodyInfo &item, const BodyInfo &boundary) {
  return std::binary_search(item.boundaryGroups.begin(), item.boundaryGroups.end(),
                            boundary.boundaryGroup);
}

cbox2d_contact_event makeEvent(b2Contact *contact, bool began) {
  b2Fixture *fa = contact->GetFixtureA();
  b2Fixture *fb = contact->GetFixtureB();
  cbox2d_contact_event e{};
  e.began = began;
  e.body_a = info(fa->GetBody())->handle;
  e.tag_a = static_cast<int32_t>(fa->GetUserData().pointer);
  e.body_b = info(fb->GetBody())->handle;
  e.tag_b = static_cast<int32_t>(fb->GetUserData().pointer);
  if (began) {
    b2WorldManifold wm;
    contact->GetWorldManifold(&wm);
    int n = contact->GetManifold()->pointCount;
    if (n > 0) {
      // Box2D's points lie midway between the surfaces, separated by `separations` along the
      // normal (A to B): step half of that back to each surface.
      b2Vec2 mid(0.0f, 0.0f), onA(0.0f, 0.0f), onB(0.0f, 0.0f);
      for (int i = 0; i < n; ++i) {
        b2Vec2 half = 0.5f * wm.separations[i] * wm.normal;
        mid += wm.points[i];
        onA += wm.points[i] - half;
        onB += wm.points[i] + half;
      }
      float k = 1.0f / static_cast<float>(n);
      mid *= k;
      onA *= k;
      onB *= k;
      if (mid.IsValid() && onA.IsValid() && onB.IsValid()) {
        e.point = cbox2d_vec2{mid.x, mid.y};
        e.point_on_a = cbox2d_vec2{onA.x, onA.y};
        e.point_on_b = cbox2d_vec2{onB.x, onB.y};
        e.has_point = true;
      }
    }
  }
  return e;
}

}  // namespace

void ContactRecorder::BeginContact(b2Contact *contact) { events.push_back(makeEvent(contact, true)); }

void ContactRecorder::EndContact(b2Contact *contact) { events.push_back(makeEvent(contact, false)); }

void ContactRecorder::PreSolve(b2Contact *contact, const b2Manifold *) {
  // Called before the solver reads the contact's restitution, outside any solve: a finger
  // pressing an item into a boundary should stop it there, not bounce it off every step.
  const BodyInfo *a = info(contact->GetFixtureA()->GetBody());
  const BodyInfo *b = info(contact->GetFixtureB()->GetBody());
  if ((a != nullptr && a->held) || (b != nullptr && b->held)) {
    contact->SetRestitution(0.0f);
  } else {
    contact->ResetRestitution();
  }
}

namespace {

bool groupsMeet(const BodyInfo *a, const BodyInfo *b) {
  if (a == nullptr || b == nullptr) return false;
  if (a->role == BodyRole::item && b->role == BodyRole::item)
    return intersects(a->itemGroups, b->itemGroups);
  if (a->role == BodyRole::item && b->role == BodyRole::boundary) return itemMeetsBoundary(*a, *b);
  if (a->role == BodyRole::boundary && b->role == BodyRole::item) return itemMeetsBoundary(*b, *a);
  return false;
}

}  // namespace

bool GroupFilter::ShouldCollide(b2Fixture *fa, b2Fixture *fb) {
  if (!groupsMeet(info(fa->GetBody()), info(fb->GetBody()))) return false;
  if (world != nullptr && world->GetContactCount() >= contactLimit) {
    ++refused;
    return false;
  }
  return true;
}

extern "C" {

cbox2d_world *cbox2d_world_create(void) {
  try {
    // Default-initialized, not value-initialized (`new cbox2d_world()` would zero the whole
    // object first): b2World embeds a 100 KiB stack allocator whose pages should stay untouched
    // until a step needs them. Every member has a constructor, so nothing is left indeterminate.
    auto *w = new cbox2d_world;
    w->world.SetAllowSleeping(true);
    w->world.SetContinuousPhysics(true);
    w->world.SetContactListener(&w->recorder);
    w->filter.world = &w->world;
    w->world.SetContactFilter(&w->filter);
    return w;
  } catch (...) {
    return nullptr;
  }
}

void cbox2d_world_destroy(cbox2d_world *w) {
  if (w == nullptr) return;
  // Box2D frees bodies with the world; the BodyInfo blocks are ours.
  w->world.SetContactListener(nullptr);
  for (b2Body *body : w->bodies)
    if (body != nullptr) delete info(body);
  delete w;
}

int cbox2d_world_step(cbox2d_world *w, float dt, int velocityIterations, int positionIterations) {
  if (int s = checkMutable(w); s != CBOX2D_OK) return s;
  if (!finite(dt) || dt < 0.0f) return CBOX2D_ERR_NON_FINITE;
  if (velocityIterations < 1 || positionIterations < 1 || velocityIterations > 100 ||
      positionIterations > 100)
    return CBOX2D_ERR_OUT_OF_RANGE;
  try {
    w->world.Step(dt, velocityIterations, positionIterations);
  } catch (...) {
    return CBOX2D_ERR_NO_MEMORY;
  }
  w->steps += 1;  // Step cleared every body's forces
  return CBOX2D_OK;
}

int cbox2d_world_set_contact_limit(cbox2d_world *w, int32_t limit) {
  if (w == nullptr) return CBOX2D_ERR_NULL_WORLD;
  if (limit < 0) return CBOX2D_ERR_OUT_OF_RANGE;
  w->filter.contactLimit = limit;
  return CBOX2D_OK;
}

int64_t cbox2d_world_refused_contacts(const cbox2d_world *w) {
  return w == nullptr ? 0 : w->filter.refused;
}

int32_t cbox2d_world_contact_count(const cbox2d_world *w) {
  return w == nullptr ? 0 : w->world.GetContactCount();
}

int32_t cbox2d_world_contact_event_count(const cbox2d_world *w) {
  return w == nullptr ? 0 : static_cast<int32_t>(w->recorder.events.size());
}

int32_t cbox2d_world_take_contact_events(cbox2d_world *w, cbox2d_contact_event *out,
                                         int32_t capacity) {
  if (w == nullptr || out == nullptr || capacity <= 0) return 0;
  auto &events = w->recorder.events;
  int32_t n = std::min(capacity, static_cast<int32_t>(events.size()));
  std::copy(events.begin(), events.begin() + n, out);
  events.erase(events.begin(), events.begin() + n);
  return n;
}

int32_t cbox2d_world_body_count(const cbox2d_world *w) {
  return w == nullptr ? 0 : w->world.GetBodyCount();
}

int32_t cbox2d_world_joint_count(const cbox2d_world *w) {
  return w == nullptr ? 0 : w->world.GetJointCount();
}

}  // extern "C"
