// The broad phase's new pairs, with a bounded cost: Box2D 2.4.1's
// b2BroadPhase::UpdatePairs<b2ContactManager> and b2ContactManager::AddPair, defined again.
//
// Why. In Box2D 2.4.1 every candidate pair walks one body's whole contact list to learn whether
// the contact exists ("TODO_ERIN use a hash table"), and every moved proxy's overlaps become
// pairs however many there are. A group (one body of many pieces) meeting a pile costs pairs ×
// contacts in one internal step: two overlapping groups of eight 64-gons took 0.7–1 s a step,
// and the pair buffer grew as pieces² / 2 (PROTOCOL.md, section 12; issue 39).
//
// How. The library calls both functions through its PLT (FindNewContacts → UpdatePairs,
// UpdatePairs → AddPair), so these definitions in the executable take their place, as an
// executable's malloc takes the place of libc's: the dynamic linker binds the library's calls to
// the first definition it finds, the executable's. A library built with -Bsymbolic-functions or
// LTO could bind them inside itself: `cbox2d_pair_rounds` counts these runs, a test checks that
// a step runs them, and dynd checks it when it starts (`DynamicAnimator.boundedPairFinderInUse`).
//
// What changes. Nothing, for a step whose pair search stays under `pairSearchLimit`: the same
// queries in the same order, the same pairs, the same contacts created in the same order, the
// same filter calls. What differs from the library:
// - A pair of one body's shapes, or of bodies whose collision groups do not meet, is dropped as
//   the query meets it (the library's AddPair and the filter's first test drop it with no other
//   effect).
// - A contact that exists is found in a hash set of the world's contacts (built once per round,
//   and only when a body's contact list is longer than `kShortList`), not by walking the list.
// - Once a step's pair search reaches `pairSearchLimit`, the moved proxies not yet queried wait,
//   once each, in order, at the front of the move buffer for the next step (their pairs are met
//   then: late, never lost), and `deferredProxies` counts those that can collide.
// - Between steps, a move buffer that passes twice the proxies keeps each proxy once
//   (`compactMoveBuffer`), where the library let repeated moves grow it without bound.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <unordered_set>
#include <vector>

#include "shim_world.hpp"

using namespace cbox2d;

namespace {

/// Edges walked in a body's contact list before the round looks contacts up in a hash set.
constexpr int kShortList = 16;

/// What a pair kept for AddPair counts against a step's limit, in overlaps visited: its
/// lookup, the filter and, for a new contact, its creation cost about that many visits.
constexpr int64_t kPairWeight = 8;

/// Pair rounds run by these definitions, in every world (read by cbox2d_pair_rounds).
std::atomic<uint64_t> pairRounds{0};

/// A contact's fixtures and children, in a fixed order, as AddPair compares them.
struct ContactKey {
  const b2Fixture *fixtureA;
  int32 indexA;
  const b2Fixture *fixtureB;
  int32 indexB;

  static ContactKey make(const b2Fixture *a, int32 ia, const b2Fixture *b, int32 ib) {
    if (std::less<const b2Fixture *>()(b, a) || (a == b && ib < ia)) return {b, ib, a, ia};
    return {a, ia, b, ib};
  }

  bool operator==(const ContactKey &o) const {
    return fixtureA == o.fixtureA && indexA == o.indexA && fixtureB == o.fixtureB &&
           indexB == o.indexB;
  }
};

struct ContactKeyHash {
  size_t operator()(const ContactKey &k) const {
    size_t h = std::hash<const void *>()(k.fixtureA);
    h = h * 31 + std::hash<const void *>()(k.fixtureB);
    return h * 31 + static_cast<size_t>(k.indexA) * 7 + static_cast<size_t>(k.indexB);
  }
};

/// The world's contacts, as keys, for one round; built the first time a list is long.
struct ExistingContacts {
  std::unordered_set<ContactKey, ContactKeyHash> keys;
  bool built = false;

  void build(const b2Contact *list) {
    for (const b2Contact *c = list; c != nullptr; c = c->GetNext())
      keys.insert(ContactKey::make(c->GetFixtureA(), c->GetChildIndexA(), c->GetFixtureB(),
                                   c->GetChildIndexB()));
    built = true;
  }
};

/// The round in progress (a world steps on one thread at a time; rounds never nest).
thread_local ExistingContacts *currentRound = nullptr;

/// Moves the proxies of `buffer[begin..<end]` to the buffer's front, each once, in the order of
/// their first places, leaving out null entries and the proxies of `buffer[0..<begin]` (already
/// queried); returns how many. `seen` is scratch, all zero before and after, even when an
/// allocation fails (the exception goes on to cbox2d_world_step, which reports it).
int32 keepFirstOnes(int32 *buffer, int32 begin, int32 end, std::vector<uint8_t> &seen) {
  std::vector<int32> kept;
  try {
    auto mark = [&seen](int32 id, uint8_t value) {
      const auto slot = static_cast<size_t>(id);
      if (slot >= seen.size()) seen.resize(slot + 1, 0);
      const bool was = seen[slot] != 0;
      seen[slot] = value;
      return was;
    };
    for (int32 i = 0; i < begin; ++i)
      if (buffer[i] != b2BroadPhase::e_nullProxy) mark(buffer[i], 1);
    for (int32 i = begin; i < end; ++i)
      if (buffer[i] != b2BroadPhase::e_nullProxy && !mark(buffer[i], 1))
        kept.push_back(buffer[i]);
    for (int32 i = 0; i < begin; ++i)
      if (buffer[i] != b2BroadPhase::e_nullProxy) mark(buffer[i], 0);
    for (int32 id : kept) mark(id, 0);
  } catch (...) {
    std::fill(seen.begin(), seen.end(), 0);
    throw;
  }
  std::copy(kept.begin(), kept.end(), buffer);
  return static_cast<int32>(kept.size());
}

/// Whether a body's shapes can collide with anything (a collision behavior holds it, or it is a
/// boundary): only such shapes' waits are told to the session (`contact_limit`).
bool canCollide(const b2Body *body) {
  const BodyInfo *i = info(const_cast<b2Body *>(body));
  if (i == nullptr) return false;
  return i->role == BodyRole::boundary || !i->itemGroups.empty() || !i->boundaryGroups.empty();
}

/// Clears `currentRound` however the round ends.
struct RoundScope {
  explicit RoundScope(ExistingContacts *round) { currentRound = round; }
  ~RoundScope() { currentRound = nullptr; }
  RoundScope(const RoundScope &) = delete;
  RoundScope &operator=(const RoundScope &) = delete;
};

GroupFilter *groupFilter(b2ContactManager *manager) {
  return static_cast<GroupFilter *>(manager->m_contactFilter);
}

}  // namespace

template <>
void b2BroadPhase::UpdatePairs<b2ContactManager>(b2ContactManager *callback) {
  pairRounds.fetch_add(1, std::memory_order_relaxed);
  GroupFilter *filter = groupFilter(callback);
  // Box2D finds pairs several times a step (new fixtures, after the solver, after each time
  // of impact it solves): the limit is the step's, and only its first round is sure to query. A
  // later round with nothing left of the limit leaves the buffer as it is, for the next step.
  const int64_t limit =
      filter != nullptr ? filter->pairSearchLimit - filter->stepPairSearch : INT64_MAX;
  const bool firstRound = filter == nullptr || filter->stepPairSearch == 0;
  if (!firstRound && limit <= 0) return;

  // The library's query of one moved proxy (b2BroadPhase::QueryCallback), less the pairs that
  // AddPair would drop before any effect: a proxy of the same body, or bodies whose collision
  // groups do not meet (the filter's first test, which counts nothing). Each overlap visited
  // counts 1 against the step's limit, and a pair kept `kPairWeight`. Queries are whole: a round
  // stops before the first query that finds the limit reached, a step's first round makes at
  // least one, so every step makes progress, and a step costs at most the limit and one query
  // (4 095 overlaps).
  struct Query {
    b2BroadPhase *phase;
    int64_t spent = 0;
    int64_t limit;
    bool QueryCallback(int32 proxyId) {
      b2BroadPhase &bp = *phase;
      spent += 1;
      if (proxyId == bp.m_queryProxyId) return true;
      if (bp.m_tree.WasMoved(proxyId) && proxyId > bp.m_queryProxyId) return true;
      auto *a = static_cast<b2FixtureProxy *>(bp.m_tree.GetUserData(proxyId));
      auto *b = static_cast<b2FixtureProxy *>(bp.m_tree.GetUserData(bp.m_queryProxyId));
      b2Body *bodyA = a->fixture->GetBody();
      b2Body *bodyB = b->fixture->GetBody();
      if (bodyA != bodyB && groupsMeet(info(bodyA), info(bodyB))) {
        spent += kPairWeight - 1;
        if (bp.m_pairCount == bp.m_pairCapacity) {
          b2Pair *old = bp.m_pairBuffer;
          bp.m_pairCapacity += bp.m_pairCapacity >> 1;
          bp.m_pairBuffer = static_cast<b2Pair *>(b2Alloc(bp.m_pairCapacity * sizeof(b2Pair)));
          memcpy(bp.m_pairBuffer, old, bp.m_pairCount * sizeof(b2Pair));
          b2Free(old);
        }
        bp.m_pairBuffer[bp.m_pairCount].proxyIdA = b2Min(proxyId, bp.m_queryProxyId);
        bp.m_pairBuffer[bp.m_pairCount].proxyIdB = b2Max(proxyId, bp.m_queryProxyId);
        ++bp.m_pairCount;
      }
      return true;
    }
  };

  // While proxies wait, a proxy that moved again was appended again (BufferMove does not look):
  // keep each once, in its first place, so that the buffer never holds more than the proxies.
  // (With none waiting the buffer is the library's, duplicates and all.)
  if (filter != nullptr && filter->waitingProxies > 0)
    m_moveCount = keepFirstOnes(m_moveBuffer, 0, m_moveCount, filter->seenProxies);

  m_pairCount = 0;
  Query query{this, 0, limit};
  // The library's queries, in its order, until the round's work reaches the limit.
  int32 queried = 0;
  for (; queried < m_moveCount && (query.spent < limit || (firstRound && queried == 0));
       ++queried) {
    m_queryProxyId = m_moveBuffer[queried];
    if (m_queryProxyId == e_nullProxy) continue;
    m_tree.Query(&query, m_tree.GetFatAABB(m_queryProxyId));
  }
  {
    ExistingContacts existing;
    RoundScope scope(&existing);
    for (int32 i = 0; i < m_pairCount; ++i) {
      const b2Pair &pair = m_pairBuffer[i];
      callback->AddPair(m_tree.GetUserData(pair.proxyIdA), m_tree.GetUserData(pair.proxyIdB));
    }
  }
  for (int32 i = 0; i < queried; ++i)
    if (m_moveBuffer[i] != e_nullProxy) m_tree.ClearMoved(m_moveBuffer[i]);
  // The proxies not queried keep their moved mark and wait, once each, at the buffer's front.
  std::vector<uint8_t> scratch;
  const int32 waiting =
      queried == m_moveCount
          ? 0
          : keepFirstOnes(m_moveBuffer, queried, m_moveCount,
                          filter != nullptr ? filter->seenProxies : scratch);
  m_moveCount = waiting;
  if (filter != nullptr) {
    filter->waitingProxies = waiting;
    filter->waitingColliding = 0;
    for (int32 i = 0; i < waiting; ++i) {
      auto *proxy = static_cast<b2FixtureProxy *>(m_tree.GetUserData(m_moveBuffer[i]));
      if (canCollide(proxy->fixture->GetBody())) ++filter->waitingColliding;
    }
    filter->stepPairSearch += std::max<int64_t>(query.spent, 1);
  }
}

/// Between steps: a proxy moved again and again (an item set somewhere, a body refiltered) is
/// appended to the move buffer each time, and a session that is not stepping never empties it.
/// Once the buffer holds more than twice the proxies, it keeps each proxy once, in its first
/// place (a duplicate adds no pair), so that requests cannot grow it without bound.
template <>
void b2BroadPhase::UpdatePairs<MoveBufferCompaction>(MoveBufferCompaction *compaction) {
  if (compaction->compact && m_moveCount > 2 * m_proxyCount + 64) {
    m_moveCount = keepFirstOnes(m_moveBuffer, 0, m_moveCount, compaction->seen);
    if (compaction->waitingProxies != nullptr)
      *compaction->waitingProxies = std::min(*compaction->waitingProxies, m_moveCount);
  }
  compaction->length = m_moveCount;
}

void b2ContactManager::AddPair(void *proxyUserDataA, void *proxyUserDataB) {
  auto *proxyA = static_cast<b2FixtureProxy *>(proxyUserDataA);
  auto *proxyB = static_cast<b2FixtureProxy *>(proxyUserDataB);
  b2Fixture *fixtureA = proxyA->fixture;
  b2Fixture *fixtureB = proxyB->fixture;
  int32 indexA = proxyA->childIndex;
  int32 indexB = proxyB->childIndex;
  b2Body *bodyA = fixtureA->GetBody();
  b2Body *bodyB = fixtureB->GetBody();
  if (bodyA == bodyB) return;

  // Does the contact exist? A short list is walked as the library does; a long one makes the
  // round look every contact up in a hash set from then on.
  ExistingContacts *existing = currentRound;
  const ContactKey key = ContactKey::make(fixtureA, indexA, fixtureB, indexB);
  if (existing != nullptr && existing->built) {
    if (existing->keys.count(key) != 0) return;
  } else {
    int walked = 0;
    b2ContactEdge *edge = bodyB->GetContactList();
    for (; edge != nullptr && (existing == nullptr || walked < kShortList);
         edge = edge->next, ++walked) {
      if (edge->other != bodyA) continue;
      const b2Contact *c = edge->contact;
      if (ContactKey::make(c->GetFixtureA(), c->GetChildIndexA(), c->GetFixtureB(),
                           c->GetChildIndexB()) == key)
        return;
    }
    if (edge != nullptr) {
      existing->build(m_contactList);
      if (existing->keys.count(key) != 0) return;
    }
  }

  // Does a joint override collision? Is at least one body dynamic? Then the user's filter.
  if (!bodyB->ShouldCollide(bodyA)) return;
  if (m_contactFilter != nullptr && !m_contactFilter->ShouldCollide(fixtureA, fixtureB)) return;

  b2Contact *c = b2Contact::Create(fixtureA, indexA, fixtureB, indexB, m_allocator);
  if (c == nullptr) return;
  if (existing != nullptr && existing->built) existing->keys.insert(key);

  // Creation may swap the fixtures.
  bodyA = c->GetFixtureA()->GetBody();
  bodyB = c->GetFixtureB()->GetBody();

  // Into the world's list, and into each body's, at the front, as the library does.
  c->m_prev = nullptr;
  c->m_next = m_contactList;
  if (m_contactList != nullptr) m_contactList->m_prev = c;
  m_contactList = c;

  c->m_nodeA.contact = c;
  c->m_nodeA.other = bodyB;
  c->m_nodeA.prev = nullptr;
  c->m_nodeA.next = bodyA->m_contactList;
  if (bodyA->m_contactList != nullptr) bodyA->m_contactList->prev = &c->m_nodeA;
  bodyA->m_contactList = &c->m_nodeA;

  c->m_nodeB.contact = c;
  c->m_nodeB.other = bodyA;
  c->m_nodeB.prev = nullptr;
  c->m_nodeB.next = bodyB->m_contactList;
  if (bodyB->m_contactList != nullptr) bodyB->m_contactList->prev = &c->m_nodeB;
  bodyB->m_contactList = &c->m_nodeB;

  ++m_contactCount;
}

extern "C" {

uint64_t cbox2d_pair_rounds(void) { return pairRounds.load(std::memory_order_relaxed); }

int cbox2d_world_set_pair_search_limit(cbox2d_world *w, int32_t limit) {
  if (w == nullptr) return CBOX2D_ERR_NULL_WORLD;
  if (limit < 1) return CBOX2D_ERR_OUT_OF_RANGE;
  w->filter.pairSearchLimit = limit;
  return CBOX2D_OK;
}

int32_t cbox2d_world_move_buffer_length(cbox2d_world *w) {
  if (w == nullptr) return -1;
  MoveBufferCompaction reading{w->filter.seenProxies, nullptr, false};
  const_cast<b2ContactManager &>(w->world.GetContactManager()).m_broadPhase.UpdatePairs(&reading);
  return reading.length;
}

int64_t cbox2d_world_deferred_proxies(const cbox2d_world *w) {
  return w == nullptr ? 0 : w->filter.deferredProxies;
}

}  // extern "C"
