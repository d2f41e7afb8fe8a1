// Bodies and their fixtures, mass, material, motion and collision groups.
#include <algorithm>
#include <new>

#include "shim_world.hpp"

using namespace cbox2d;

namespace {

// Smallest accepted half-extent / radius / segment: Box2D welds points closer than
// 0.5 * b2_linearSlop and asserts on degenerate polygons, so stay well above that.
constexpr float kMinExtent = b2_linearSlop;
// Smallest accepted polygon area (m²); Box2D asserts above b2_epsilon (1.2e-7).
constexpr float kMinArea = 1.0e-6f;
// Box2D lets resting shapes sink up to b2_linearSlop into each other; each shape's surface is
// grown by half of that so that a resting item's visible gap is within ±b2_linearSlop / 2.
constexpr float kRestCompensation = 0.5f * b2_linearSlop;
// Largest accepted coordinate magnitude (m) — 10^7 pt, far beyond any screen.
constexpr float kMaxCoordinate = 1.0e5f;

// Friction of a boundary's fixtures: b2FixtureDef's default, which boundaries have always had.
constexpr float kBoundaryFriction = 0.2f;

bool inWorld(float v) { return finite(v) && std::fabs(v) <= kMaxCoordinate; }
bool inWorld(cbox2d_vec2 v) { return inWorld(v.x) && inWorld(v.y); }

/// A fixture definition with the material a new fixture of `body` starts with: UIKit's item
/// defaults (friction 0, restitution 0) — what the caller assumes until it sets a material — or
/// a boundary's. Box2D's own default friction, 0.2, made an item of friction 0 grip anything
/// until some change of its material (elasticity included) reached the shim.
b2FixtureDef fixtureDef(b2Body *body, const b2Shape *shape, int32_t tag) {
  b2FixtureDef def;
  def.shape = shape;
  def.density = 0.0f;  // mass is explicit (cbox2d_body_set_mass)
  def.friction = info(body)->role == BodyRole::boundary ? kBoundaryFriction : 0.0f;
  def.restitution = 0.0f;
  def.userData.pointer = static_cast<uintptr_t>(static_cast<uint32_t>(tag));
  return def;
}

float cross(b2Vec2 o, b2Vec2 a, b2Vec2 b) { return b2Cross(a - o, b - o); }

/// Convex hull (counter-clockwise, collinear points dropped) by Andrew's monotone chain.
std::vector<b2Vec2> convexHull(std::vector<b2Vec2> pts) {
  std::sort(pts.begin(), pts.end(),
            [](b2Vec2 a, b2Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  pts.erase(std::unique(pts.begin(), pts.end(),
                        [](b2Vec2 a, b2Vec2 b) { return a.x == b.x && a.y == b.y; }),
            pts.end());
  if (pts.size() < 3) return {};
  std::vector<b2Vec2> hull(2 * pts.size());
  size_t k = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0.0f) --k;
    hull[k++] = pts[i];
  }
  for (size_t i = pts.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && cross(hull[k - 2], hull[k - 1], pts[i - 1]) <= 0.0f) --k;
    hull[k++] = pts[i - 1];
  }
  hull.resize(k - 1);
  return hull;
}

float polygonArea(const std::vector<b2Vec2> &v) {
  float a = 0.0f;
  for (size_t i = 0; i < v.size(); ++i) a += b2Cross(v[i], v[(i + 1) % v.size()]);
  return 0.5f * a;
}

float minEdge(const std::vector<b2Vec2> &v) {
  float m = b2_maxFloat;
  for (size_t i = 0; i < v.size(); ++i) m = std::min(m, b2Distance(v[i], v[(i + 1) % v.size()]));
  return m;
}

/// Moves every edge of a CCW convex polygon inward by r (exact offset of each edge line).
std::vector<b2Vec2> inset(const std::vector<b2Vec2> &v, float r) {
  size_t n = v.size();
  std::vector<b2Vec2> out(n);
  for (size_t i = 0; i < n; ++i) {
    b2Vec2 prev = v[(i + n - 1) % n], cur = v[i], next = v[(i + 1) % n];
    b2Vec2 e1 = cur - prev, e2 = next - cur;
    e1.Normalize();
    e2.Normalize();
    b2Vec2 n1(e1.y, -e1.x), n2(e2.y, -e2.x);  // outward normals of a CCW polygon
    float denom = 1.0f + b2Dot(n1, n2);
    out[i] = cur - (r / std::max(denom, 0.05f)) * (n1 + n2);
  }
  return out;
}

/// The polygon core for a visual outline: inset by the skin so that the skin's outer surface is
/// the outline. Falls back to no skin when insetting would collapse a thin polygon.
bool makeCore(const std::vector<b2Vec2> &outline, std::vector<b2Vec2> *core, float *skin) {
  // The skin may not exceed a quarter of the polygon's smallest edge, so small items keep a core.
  for (float s : {std::min(b2_polygonRadius, 0.25f * minEdge(outline)), 0.0f}) {
    // Inset by less than the skin (kRestCompensation): the surface sits that much outside the
    // outline, so the resting penetration Box2D allows centres the visible gap on zero.
    float depth = std::max(0.0f, s - kRestCompensation);
    std::vector<b2Vec2> hull = convexHull(depth > 0.0f ? inset(outline, depth) : outline);
    if (hull.size() == outline.size() && polygonArea(hull) >= kMinArea &&
        minEdge(hull) >= b2_linearSlop) {
      *core = hull;
      *skin = s;
      return true;
    }
  }
  return false;
}

/// Validates raw polygon input; on success `hull` is its CCW outline.
int checkPolygon(const cbox2d_vec2 *vertices, int32_t count, std::vector<b2Vec2> *hull) {
  if (vertices == nullptr || count < 3) return CBOX2D_ERR_DEGENERATE;
  if (count > b2_maxPolygonVertices) return CBOX2D_ERR_TOO_MANY_VERTICES;
  std::vector<b2Vec2> pts;
  for (int32_t i = 0; i < count; ++i) {
    if (!inWorld(vertices[i])) return CBOX2D_ERR_NON_FINITE;
    pts.push_back(vec(vertices[i]));
  }
  *hull = convexHull(pts);
  if (hull->size() < 3 || polygonArea(*hull) < kMinArea || minEdge(*hull) < b2_linearSlop)
    return CBOX2D_ERR_DEGENERATE;
  if (hull->size() != static_cast<size_t>(count)) return CBOX2D_ERR_NOT_CONVEX;
  std::vector<b2Vec2> core;
  float skin;
  return makeCore(*hull, &core, &skin) ? CBOX2D_OK : CBOX2D_ERR_DEGENERATE;
}

/// Adds a fixture whose visual outline is `outline`.
int addConvex(b2Body *body, const std::vector<b2Vec2> &outline, int32_t tag) {
  std::vector<b2Vec2> hull;
  float skin;
  if (!makeCore(outline, &hull, &skin)) return CBOX2D_ERR_DEGENERATE;
  b2PolygonShape shape;
  shape.Set(hull.data(), static_cast<int32>(hull.size()));
  shape.m_radius = skin;
  b2FixtureDef def = fixtureDef(body, &shape, tag);
  body->CreateFixture(&def);
  return CBOX2D_OK;
}

void reapplyMass(b2Body *body) {
  BodyInfo *bi = info(body);
  if (bi->hasMass && body->GetType() == b2_dynamicBody) body->SetMassData(&bi->mass);
}

int fixtureStatus(const cbox2d_world *w, int32_t handle, b2Body **out) {
  if (int s = checkMutable(w); s != CBOX2D_OK) return s;
  *out = lookupBody(w, handle);
  return *out == nullptr ? CBOX2D_ERR_BAD_HANDLE : CBOX2D_OK;
}

b2BodyType toBox2D(cbox2d_body_type t) {
  switch (t) {
    case CBOX2D_BODY_STATIC: return b2_staticBody;
    case CBOX2D_BODY_KINEMATIC: return b2_kinematicBody;
    default: return b2_dynamicBody;
  }
}

bool validType(cbox2d_body_type t) {
  return t == CBOX2D_BODY_STATIC || t == CBOX2D_BODY_KINEMATIC || t == CBOX2D_BODY_DYNAMIC;
}

std::vector<uint32_t> sortedGroups(const uint32_t *groups, int32_t count) {
  std::vector<uint32_t> v(groups, groups + count);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

void refilter(b2Body *body) {
  for (b2Fixture *f = body->GetFixtureList(); f != nullptr; f = f->GetNext()) f->Refilter();
  compactMoveBuffer(body->GetWorld());
}

}  // namespace

extern "C" {

int cbox2d_polygon_check(const cbox2d_vec2 *vertices, int32_t count) {
  std::vector<b2Vec2> hull;
  try {
    return checkPolygon(vertices, count, &hull);
  } catch (...) {
    return CBOX2D_ERR_NO_MEMORY;
  }
}

int32_t cbox2d_body_create(cbox2d_world *w, cbox2d_body_type type, float x, float y, float angle) {
  if (int s = checkMutable(w); s != CBOX2D_OK) return s;
  if (!validType(type)) return CBOX2D_ERR_OUT_OF_RANGE;
  if (!inWorld(x) || !inWorld(y) || !finite(angle)) return CBOX2D_ERR_NON_FINITE;
  try {
    auto *bi = new BodyInfo();
    b2BodyDef def;
    def.type = toBox2D(type);
    def.position.Set(x, y);
    def.angle = angle;
    def.userData.pointer = reinterpret_cast<uintptr_t>(bi);
    int32_t handle;
    if (!w->freeBodies.empty()) {
      handle = w->freeBodies.back();
      w->freeBodies.pop_back();
    } else {
      handle = static_cast<int32_t>(w->bodies.size());
      w->bodies.push_back(nullptr);
    }
    bi->handle = handle;
    w->bodies[static_cast<size_t>(handle)] = w->world.CreateBody(&def);
    return handle;
  } catch (...) {
    return CBOX2D_ERR_NO_MEMORY;
  }
}

int cbox2d_body_destroy(cbox2d_world *w, int32_t handle) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  // Box2D destroys the body's joints with it: forget their handles first.
  for (b2JointEdge *je = body->GetJointList(); je != nullptr; je = je->next) {
    auto jh = static_cast<int32_t>(je->joint->GetUserData().pointer);
    w->joints[static_cast<size_t>(jh)] = nullptr;
    w->freeJoints.push_back(jh);
  }
  BodyInfo *bi = info(body);
  w->world.DestroyBody(body);  // may queue contact-ended events; bi is still valid here
  delete bi;
  w->bodies[static_cast<size_t>(handle)] = nullptr;
  w->freeBodies.push_back(handle);
  return CBOX2D_OK;
}

int cbox2d_body_set_type(cbox2d_world *w, int32_t handle, cbox2d_body_type type) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!validType(type)) return CBOX2D_ERR_OUT_OF_RANGE;
  if (body->GetType() == toBox2D(type)) return CBOX2D_OK;
  body->SetType(toBox2D(type));
  info(body)->forceStep = UINT64_MAX;  // SetType cleared the body's forces
  reapplyMass(body);
  return CBOX2D_OK;
}

int cbox2d_body_add_box(cbox2d_world *w, int32_t handle, float hw, float hh, int32_t tag) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!finite(hw) || !finite(hh)) return CBOX2D_ERR_NON_FINITE;
  if (hw < kMinExtent || hh < kMinExtent || hw > kMaxCoordinate || hh > kMaxCoordinate)
    return CBOX2D_ERR_DEGENERATE;
  return addConvex(body, {{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}}, tag);
}

int cbox2d_body_add_circle(cbox2d_world *w, int32_t handle, cbox2d_vec2 center, float radius,
                           int32_t tag) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!finite(radius) || !inWorld(center)) return CBOX2D_ERR_NON_FINITE;
  if (radius < kMinExtent || radius > kMaxCoordinate) return CBOX2D_ERR_DEGENERATE;
  b2CircleShape shape;
  shape.m_p = vec(center);
  shape.m_radius = radius + kRestCompensation;
  b2FixtureDef def = fixtureDef(body, &shape, tag);
  body->CreateFixture(&def);
  return CBOX2D_OK;
}

int cbox2d_body_add_polygon(cbox2d_world *w, int32_t handle, const cbox2d_vec2 *vertices,
                            int32_t count, int32_t tag) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  std::vector<b2Vec2> hull;
  if (int s = checkPolygon(vertices, count, &hull); s != CBOX2D_OK) return s;
  return addConvex(body, hull, tag);
}

int cbox2d_body_add_edge(cbox2d_world *w, int32_t handle, cbox2d_vec2 a, cbox2d_vec2 b,
                         int32_t tag) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!inWorld(a) || !inWorld(b)) return CBOX2D_ERR_NON_FINITE;
  if (b2Distance(vec(a), vec(b)) < b2_linearSlop) return CBOX2D_ERR_DEGENERATE;
  b2EdgeShape shape;
  shape.SetTwoSided(vec(a), vec(b));
  shape.m_radius = 0.0f;  // no skin: what rests on a boundary touches the line itself
  b2FixtureDef def = fixtureDef(body, &shape, tag);
  body->CreateFixture(&def);
  return CBOX2D_OK;
}

int cbox2d_body_remove_fixtures(cbox2d_world *w, int32_t handle, int32_t tag) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  int removed = 0;
  for (b2Fixture *f = body->GetFixtureList(); f != nullptr;) {
    b2Fixture *next = f->GetNext();
    if (static_cast<int32_t>(f->GetUserData().pointer) == tag) {
      body->DestroyFixture(f);
      ++removed;
    }
    f = next;
  }
  if (removed > 0) reapplyMass(body);
  return removed;
}

int cbox2d_body_set_mass(cbox2d_world *w, int32_t handle, float mass, cbox2d_vec2 center,
                         float inertia) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!finite(mass) || !finite(center) || !finite(inertia)) return CBOX2D_ERR_NON_FINITE;
  if (mass <= 0.0f || inertia <= 0.0f) return CBOX2D_ERR_OUT_OF_RANGE;
  BodyInfo *bi = info(body);
  bi->mass.mass = mass;
  bi->mass.center = vec(center);
  // Box2D takes inertia about the body origin and subtracts m·|c|² again; keep the result > 0.
  float shift = mass * b2Dot(bi->mass.center, bi->mass.center);
  bi->mass.I = inertia + shift;
  if (!finite(bi->mass.I) || bi->mass.I - shift <= 0.0f) return CBOX2D_ERR_OUT_OF_RANGE;
  bi->hasMass = true;
  reapplyMass(body);
  return CBOX2D_OK;
}

float cbox2d_body_get_mass(const cbox2d_world *w, int32_t handle) {
  b2Body *body = lookupBody(w, handle);
  return body == nullptr ? 0.0f : body->GetMass();
}

int cbox2d_body_set_material(cbox2d_world *w, int32_t handle, float friction, float restitution) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!finite(friction) || !finite(restitution)) return CBOX2D_ERR_NON_FINITE;
  if (friction < 0.0f || restitution < 0.0f) return CBOX2D_ERR_OUT_OF_RANGE;
  for (b2Fixture *f = body->GetFixtureList(); f != nullptr; f = f->GetNext()) {
    f->SetFriction(friction);
    f->SetRestitution(restitution);
  }
  // Existing contacts keep their mixed values; refresh them.
  for (b2ContactEdge *ce = body->GetContactList(); ce != nullptr; ce = ce->next) {
    ce->contact->ResetFriction();
    ce->contact->ResetRestitution();
  }
  return CBOX2D_OK;
}

int cbox2d_body_set_damping(cbox2d_world *w, int32_t handle, float linear, float angular) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!finite(linear) || !finite(angular)) return CBOX2D_ERR_NON_FINITE;
  if (linear < 0.0f || angular < 0.0f) return CBOX2D_ERR_OUT_OF_RANGE;
  body->SetLinearDamping(linear);
  body->SetAngularDamping(angular);
  return CBOX2D_OK;
}

int cbox2d_body_set_fixed_rotation(cbox2d_world *w, int32_t handle, bool fixed) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (body->IsFixedRotation() == fixed) return CBOX2D_OK;
  body->SetFixedRotation(fixed);  // resets the mass data
  reapplyMass(body);
  return CBOX2D_OK;
}

int cbox2d_body_set_transform(cbox2d_world *w, int32_t handle, float x, float y, float angle) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!inWorld(x) || !inWorld(y) || !finite(angle)) return CBOX2D_ERR_NON_FINITE;
  body->SetTransform(b2Vec2(x, y), angle);
  compactMoveBuffer(&w->world);
  return CBOX2D_OK;
}

int cbox2d_body_set_velocity(cbox2d_world *w, int32_t handle, float vx, float vy, float av) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!finite(vx) || !finite(vy) || !finite(av)) return CBOX2D_ERR_NON_FINITE;
  body->SetLinearVelocity(b2Vec2(vx, vy));
  body->SetAngularVelocity(av);
  return CBOX2D_OK;
}

int cbox2d_body_set_awake(cbox2d_world *w, int32_t handle, bool awake) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  body->SetAwake(awake);
  if (!awake) info(body)->forceStep = UINT64_MAX;  // sleeping cleared the body's forces
  return CBOX2D_OK;
}

int cbox2d_body_set_held(cbox2d_world *w, int32_t handle, bool held) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  info(body)->held = held;
  return CBOX2D_OK;
}

int cbox2d_body_get_state(const cbox2d_world *w, int32_t handle, cbox2d_body_state *out) {
  if (w == nullptr) return CBOX2D_ERR_NULL_WORLD;
  b2Body *body = lookupBody(w, handle);
  if (body == nullptr || out == nullptr) return CBOX2D_ERR_BAD_HANDLE;
  const b2Vec2 &p = body->GetPosition();
  const b2Vec2 &v = body->GetLinearVelocity();
  out->x = p.x;
  out->y = p.y;
  out->angle = body->GetAngle();
  out->vx = v.x;
  out->vy = v.y;
  out->angular_velocity = body->GetAngularVelocity();
  out->awake = body->IsAwake();
  return CBOX2D_OK;
}

int cbox2d_body_apply_force(cbox2d_world *w, int32_t handle, cbox2d_vec2 force,
                            cbox2d_vec2 point, bool wake) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!finite(force) || !finite(point)) return CBOX2D_ERR_NON_FINITE;
  body->ApplyForce(vec(force), vec(point), wake);
  // Record what Box2D accepted (a dynamic, awake body takes it), the same sum it keeps.
  if (body->GetType() == b2_dynamicBody && body->IsAwake()) {
    BodyInfo *i = info(body);
    if (i->forceStep != w->steps) {
      i->force.SetZero();
      i->forceStep = w->steps;
    }
    i->force += vec(force);
  }
  return CBOX2D_OK;
}

int cbox2d_body_get_force(const cbox2d_world *w, int32_t handle, cbox2d_vec2 *out) {
  if (w == nullptr) return CBOX2D_ERR_NULL_WORLD;
  if (out == nullptr) return CBOX2D_ERR_OUT_OF_RANGE;
  b2Body *body = lookupBody(w, handle);
  if (body == nullptr) return CBOX2D_ERR_BAD_HANDLE;
  const BodyInfo *i = info(body);
  bool current = i->forceStep == w->steps && body->IsAwake();
  out->x = current ? i->force.x : 0.0f;
  out->y = current ? i->force.y : 0.0f;
  return CBOX2D_OK;
}

int cbox2d_body_apply_impulse(cbox2d_world *w, int32_t handle, cbox2d_vec2 impulse,
                              cbox2d_vec2 point, bool wake) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (!finite(impulse) || !finite(point)) return CBOX2D_ERR_NON_FINITE;
  body->ApplyLinearImpulse(vec(impulse), vec(point), wake);
  return CBOX2D_OK;
}

int cbox2d_body_set_item_groups(cbox2d_world *w, int32_t handle, const uint32_t *itemGroups,
                                int32_t itemCount, const uint32_t *boundaryGroups,
                                int32_t boundaryCount) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  if (itemCount < 0 || boundaryCount < 0 || (itemCount > 0 && itemGroups == nullptr) ||
      (boundaryCount > 0 && boundaryGroups == nullptr))
    return CBOX2D_ERR_OUT_OF_RANGE;
  BodyInfo *bi = info(body);
  if (bi->role == BodyRole::boundary) return CBOX2D_ERR_WRONG_KIND;
  try {
    auto items = sortedGroups(itemGroups, itemCount);
    auto bounds = sortedGroups(boundaryGroups, boundaryCount);
    bool changed = bi->role != BodyRole::item || items != bi->itemGroups ||
                   bounds != bi->boundaryGroups;
    bi->role = BodyRole::item;
    bi->itemGroups = std::move(items);
    bi->boundaryGroups = std::move(bounds);
    if (changed) refilter(body);
  } catch (...) {
    return CBOX2D_ERR_NO_MEMORY;
  }
  return CBOX2D_OK;
}

int cbox2d_body_make_boundary(cbox2d_world *w, int32_t handle, uint32_t group) {
  b2Body *body;
  if (int s = fixtureStatus(w, handle, &body); s != CBOX2D_OK) return s;
  BodyInfo *bi = info(body);
  if (bi->role == BodyRole::item) return CBOX2D_ERR_WRONG_KIND;
  bi->role = BodyRole::boundary;
  bi->boundaryGroup = group;
  refilter(body);
  return CBOX2D_OK;
}

}  // extern "C"
