// The world: creation, the step, queued contact events and the group contact filter.
#include <algorithm>
#include <cmath>
#include <new>
#include <utility>

#include "shim_world.hpp"

using namespace cbox2d;

namespace {

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

namespace {

// Two contact points whose depths differ by less than this are one flat, face-on touch. It is
// b2CollidePolygons' own tolerance for a tie between two faces (k_tol, 0.1 · b2_linearSlop).
constexpr float kFlatTolerance = 0.1f * b2_linearSlop;

/// Rebuilds the manifold of an item polygon touching a static polygon (a reference-bounds wall, an
/// anchored item) with the static polygon first, so that the static face is the reference face
/// whenever Box2D would choose it in that order.
///
/// b2CollidePolygons takes the reference face of its first polygon unless the second's is deeper
/// by kFlatTolerance, and which polygon is first is the broad phase's order. For a flat item on a
/// flat wall the faces tie, so the item's face was chosen, and its normal turns with the item:
/// turned by the 1e-5…1e-3 rad a bounce leaves, it pushed every later bounce, and the weight of a
/// resting item, sideways. A frictionless 50×50 box dropped flat with elasticity 0.5 left its
/// first bounce at 1.06 pt/s and never stopped. The static face's normal does not turn.
///
/// A contact in which the item's face is deeper (a wall's corner on an item's face) keeps Box2D's
/// manifold. The rebuilt one is written back in the contact's order, with impulses carried over
/// from the previous manifold by feature id, as Box2D does for its own.
void rebuildOnStaticFace(b2Contact *contact, const b2Manifold *oldManifold) {
  b2Fixture *fa = contact->GetFixtureA();
  b2Fixture *fb = contact->GetFixtureB();
  if (fa->GetType() != b2Shape::e_polygon || fb->GetType() != b2Shape::e_polygon) return;
  bool staticA = fa->GetBody()->GetType() == b2_staticBody;
  if (staticA == (fb->GetBody()->GetType() == b2_staticBody)) return;
  b2Manifold *manifold = contact->GetManifold();
  if (manifold->pointCount == 0) return;
  b2Fixture *fs = staticA ? fa : fb;
  b2Fixture *fd = staticA ? fb : fa;
  b2Manifold rebuilt;
  b2CollidePolygons(&rebuilt, static_cast<const b2PolygonShape *>(fs->GetShape()),
                    fs->GetBody()->GetTransform(),
                    static_cast<const b2PolygonShape *>(fd->GetShape()),
                    fd->GetBody()->GetTransform());
  if (rebuilt.pointCount == 0 || rebuilt.type != b2Manifold::e_faceA) return;
  // In the contact's order the static face is face A or face B; the clip points stay on the item.
  manifold->type = staticA ? b2Manifold::e_faceA : b2Manifold::e_faceB;
  manifold->localNormal = rebuilt.localNormal;
  manifold->localPoint = rebuilt.localPoint;
  manifold->pointCount = rebuilt.pointCount;
  for (int i = 0; i < rebuilt.pointCount; ++i) {
    b2ManifoldPoint &p = manifold->points[i];
    p = rebuilt.points[i];
    if (!staticA) {
      std::swap(p.id.cf.indexA, p.id.cf.indexB);
      std::swap(p.id.cf.typeA, p.id.cf.typeB);
    }
    p.normalImpulse = 0.0f;
    p.tangentImpulse = 0.0f;
    for (int j = 0; oldManifold != nullptr && j < oldManifold->pointCount; ++j) {
      if (oldManifold->points[j].id.key == p.id.key) {
        p.normalImpulse = oldManifold->points[j].normalImpulse;
        p.tangentImpulse = oldManifold->points[j].tangentImpulse;
        break;
      }
    }
  }
}

/// Reads the two fields by which Box2D 2.4.1 marks the contact whose time of impact it is
/// solving. They are protected; a pointer to member named through a derived class is how C++
/// lets code outside read them. The class is never instantiated.
struct ContactInternals : b2Contact {
  /// True while b2World::SolveTOI updates the contact it has just advanced both bodies to: that
  /// contact still carries e_toiFlag and its impact time m_toi, below 1 − 10 ε. A contact met in
  /// the discrete collide phase carries no flag, or the time its last search left, which is later
  /// than 1 − 10 ε (the search stops only once every remaining impact time is that late).
  static bool atTimeOfImpact(const b2Contact *c) {
    const uint32 b2Contact::*flags = &ContactInternals::m_flags;
    const float b2Contact::*toi = &ContactInternals::m_toi;
    return (c->*flags & e_toiFlag) != 0 && c->*toi <= 1.0f - 10.0f * b2_epsilon;
  }
};

/// At a time of impact of an item on a static face through a flat, face-on two-point contact sunk
/// past the slop, replaces the two points by the one under the item's centre of mass.
///
/// Continuous collision stops a skinned polygon arriving at another where their cores are
/// max(b2_linearSlop, skins − 3 · b2_linearSlop) apart: 3 slops deep for the 1 cm skins of two
/// polygons. SolveTOI then pushes the item out with its sequential position pass, one manifold
/// point after the other, which turns a flat item (0.043° for a 50 pt box dropped from y 100),
/// and applies the bounce along the turned face. Through the point under the centre of mass the
/// push and the bounce of a flat item are straight and turn nothing. (The middle of the two
/// points would not do: on an item tilted within the tolerance it lies off that line, toward the
/// higher end, so the bounce would tilt it further, bounce after bounce.) Only this sub-step sees
/// the merged point: the next collide phase rebuilds both, and TOI impulses never warm-start
/// (Box2D stores none of them). A resting contact (not past the slop, as a skinless segment's at
/// every sub-step) is left alone, and so is an item whose centre of mass is not over the contact.
void mergeFlatImpact(b2Contact *contact) {
  b2Manifold *m = contact->GetManifold();
  if (m->pointCount != 2) return;
  b2Body *a = contact->GetFixtureA()->GetBody();
  b2Body *b = contact->GetFixtureB()->GetBody();
  bool staticA = a->GetType() == b2_staticBody;
  if (staticA == (b->GetType() == b2_staticBody)) return;
  // The static body's face is the reference; the clip points are in the item's frame.
  if (m->type != (staticA ? b2Manifold::e_faceA : b2Manifold::e_faceB)) return;
  if (!ContactInternals::atTimeOfImpact(contact)) return;
  b2WorldManifold wm;
  contact->GetWorldManifold(&wm);
  if (std::fabs(wm.separations[0] - wm.separations[1]) > kFlatTolerance) return;
  if (std::max(wm.separations[0], wm.separations[1]) >= -b2_linearSlop) return;
  b2Body *item = staticA ? b : a;
  b2Vec2 normal = b2MulT(item->GetTransform().q, wm.normal);
  b2Vec2 q0 = m->points[0].localPoint;
  b2Vec2 span = m->points[1].localPoint - q0;
  float across = b2Cross(span, normal);
  if (across == 0.0f) return;
  float t = b2Cross(item->GetLocalCenter() - q0, normal) / across;
  if (!(t >= 0.0f && t <= 1.0f)) return;
  b2ManifoldPoint &p = m->points[0];
  p.localPoint = q0 + t * span;
  p.normalImpulse = 0.0f;
  p.tangentImpulse = 0.0f;
  m->pointCount = 1;
}

}  // namespace

void ContactRecorder::PreSolve(b2Contact *contact, const b2Manifold *oldManifold) {
  rebuildOnStaticFace(contact, oldManifold);
  mergeFlatImpact(contact);
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
  w->filter.stepPairSearch = 0;
  try {
    w->world.Step(dt, velocityIterations, positionIterations);
  } catch (...) {
    return CBOX2D_ERR_NO_MEMORY;
  }
  w->filter.deferredProxies += w->filter.waitingColliding;
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
