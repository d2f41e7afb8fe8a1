// Internal to the shim: the C++ side of cbox2d_world. Never included from include/.
#ifndef CBOX2D_SHIM_WORLD_HPP
#define CBOX2D_SHIM_WORLD_HPP

#include <box2d/box2d.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "include/cbox2d.h"

namespace cbox2d {

/// What a body is for, as the contact filter sees it.
enum class BodyRole { anchor, item, boundary };

/// Per-body data, owned by the world and pointed to by b2BodyUserData::pointer.
struct BodyInfo {
  int32_t handle = -1;
  BodyRole role = BodyRole::anchor;
  std::vector<uint32_t> itemGroups;      // sorted
  std::vector<uint32_t> boundaryGroups;  // sorted
  uint32_t boundaryGroup = 0;
  // The mass the caller asked for; re-applied after anything that makes Box2D recompute it.
  bool hasMass = false;
  b2MassData mass{};
  // Held by a finger (cbox2d_body_set_held): its contacts do not bounce.
  bool held = false;
  // The forces Box2D accepted since step `forceStep` began (cbox2d_body_get_force); a record of
  // an older step is stale, and so is one of a body that slept or changed type since.
  b2Vec2 force{0.0f, 0.0f};
  uint64_t forceStep = UINT64_MAX;
};

/// Queues contact began/ended events; never touches the world from inside a callback.
class ContactRecorder : public b2ContactListener {
 public:
  std::vector<cbox2d_contact_event> events;
  void BeginContact(b2Contact *contact) override;
  void EndContact(b2Contact *contact) override;
  /// Held bodies meet what they touch without restitution; others get their mixed value back.
  void PreSolve(b2Contact *contact, const b2Manifold *oldManifold) override;
};

/// Decides whether two fixtures may collide from the bodies' collision groups, and refuses new
/// contacts while the world holds `contactLimit` of them (counting each refusal). It also holds
/// the broad phase's bound (pairs.cpp): a step's pair search does about `pairSearchLimit` work at
/// most, and the moved proxies beyond it wait for the next step (`deferredProxies` counts them).
class GroupFilter : public b2ContactFilter {
 public:
  const b2World *world = nullptr;
  int32_t contactLimit = INT32_MAX;
  int64_t refused = 0;
  int64_t pairSearchLimit = INT64_MAX;
  int64_t deferredProxies = 0;
  int32_t waitingProxies = 0;  // proxies the last round left waiting in the move buffer
  int32_t waitingColliding = 0;  // those of them whose shapes can collide with something
  int64_t stepPairSearch = 0;  // the pair search's work in the step in progress
  std::vector<uint8_t> seenProxies;  // scratch marks for removing duplicates from that buffer
  bool ShouldCollide(b2Fixture *a, b2Fixture *b) override;
};

/// The type whose `b2BroadPhase::UpdatePairs` (pairs.cpp) removes duplicates from the move
/// buffer between steps (`compactMoveBuffer`), and tells the buffer's length.
struct MoveBufferCompaction {
  std::vector<uint8_t> &seen;
  int32_t *waitingProxies;
  bool compact = true;  // false: only tell the length
  int32_t length = 0;   // out: the buffer's entries after the call
};

}  // namespace cbox2d

// Defined in pairs.cpp.
template <>
void b2BroadPhase::UpdatePairs<b2ContactManager>(b2ContactManager *callback);
template <>
void b2BroadPhase::UpdatePairs<cbox2d::MoveBufferCompaction>(
    cbox2d::MoveBufferCompaction *compaction);

struct cbox2d_world {
  b2World world{b2Vec2(0.0f, 0.0f)};
  std::vector<b2Body *> bodies;  // index = handle; nullptr = free slot
  std::vector<b2Joint *> joints;
  std::vector<int32_t> freeBodies;
  std::vector<int32_t> freeJoints;
  cbox2d::ContactRecorder recorder;
  cbox2d::GroupFilter filter;
  uint64_t steps = 0;  // cbox2d_world_step calls so far
};

namespace cbox2d {

inline bool intersects(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j) return true;
    if (*i < *j) ++i; else ++j;
  }
  return false;
}

inline bool itemMeetsBoundary(const BodyInfo &item, const BodyInfo &boundary) {
  return std::binary_search(item.boundaryGroups.begin(), item.boundaryGroups.end(),
                            boundary.boundaryGroup);
}

/// Whether two bodies' collision groups meet: items sharing a collision behavior, or an item
/// and a boundary of its behavior. The contact filter's first test (nothing else collides).
inline bool groupsMeet(const BodyInfo *a, const BodyInfo *b) {
  if (a == nullptr || b == nullptr) return false;
  if (a->role == BodyRole::item && b->role == BodyRole::item)
    return intersects(a->itemGroups, b->itemGroups);
  if (a->role == BodyRole::item && b->role == BodyRole::boundary) return itemMeetsBoundary(*a, *b);
  if (a->role == BodyRole::boundary && b->role == BodyRole::item) return itemMeetsBoundary(*b, *a);
  return false;
}

inline bool finite(float v) { return std::isfinite(v); }
inline bool finite(cbox2d_vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }
inline b2Vec2 vec(cbox2d_vec2 v) { return b2Vec2(v.x, v.y); }

inline BodyInfo *info(b2Body *body) {
  return reinterpret_cast<BodyInfo *>(body->GetUserData().pointer);
}

/// The body for a handle, or nullptr when the handle is out of range or freed.
inline b2Body *lookupBody(const cbox2d_world *w, int32_t handle) {
  if (w == nullptr || handle < 0 || static_cast<size_t>(handle) >= w->bodies.size()) return nullptr;
  return w->bodies[static_cast<size_t>(handle)];
}

inline b2Joint *lookupJoint(const cbox2d_world *w, int32_t handle) {
  if (w == nullptr || handle < 0 || static_cast<size_t>(handle) >= w->joints.size()) return nullptr;
  return w->joints[static_cast<size_t>(handle)];
}

/// Keeps the world's broad-phase move buffer within twice its proxies (after calls that append
/// to it outside a step: a body's transform set, its fixtures refiltered).
/// Returns the buffer's length (-1 when it could not be read). Never throws: the compaction is
/// skipped when memory runs out.
inline int32_t compactMoveBuffer(b2World *world) {
  auto &manager = const_cast<b2ContactManager &>(world->GetContactManager());
  auto *filter = static_cast<GroupFilter *>(manager.m_contactFilter);
  if (filter == nullptr) return -1;
  MoveBufferCompaction compaction{filter->seenProxies, &filter->waitingProxies};
  try {
    manager.m_broadPhase.UpdatePairs(&compaction);
  } catch (...) {
    return -1;
  }
  return compaction.length;
}

/// Common precondition for calls that change the world: it exists and is not stepping.
inline int checkMutable(const cbox2d_world *w) {
  if (w == nullptr) return CBOX2D_ERR_NULL_WORLD;
  if (w->world.IsLocked()) return CBOX2D_ERR_LOCKED;
  return CBOX2D_OK;
}

}  // namespace cbox2d

#endif
