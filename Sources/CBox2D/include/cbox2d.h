/*
 * cbox2d.h — a plain C view of Box2D 2.4.1 for Swift.
 *
 * Everything here is C: an opaque world, integer handles for bodies and joints, plain structs.
 * All lengths are Box2D metres (the Swift side converts: 100 pt = 1 m), masses kilograms,
 * angles radians.  Debian builds Box2D with assertions on, so every function validates its
 * input and returns a negative cbox2d_status instead of letting Box2D abort the process.
 * No function may be called from inside cbox2d_world_step (the shim has no callbacks into
 * the caller; contact events are queued during the step and read after it).
 */
#ifndef CBOX2D_H
#define CBOX2D_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Result codes; every fallible call returns one (negative on failure) or a handle >= 0. */
typedef enum {
  CBOX2D_OK = 0,
  CBOX2D_ERR_NULL_WORLD = -1,
  CBOX2D_ERR_NON_FINITE = -2,
  CBOX2D_ERR_BAD_HANDLE = -3,
  CBOX2D_ERR_DEGENERATE = -4,      /* zero or too small size, collinear or coincident points */
  CBOX2D_ERR_TOO_MANY_VERTICES = -5,
  CBOX2D_ERR_NOT_CONVEX = -6,
  CBOX2D_ERR_SAME_BODY = -7,       /* a joint needs two distinct bodies */
  CBOX2D_ERR_OUT_OF_RANGE = -8,    /* negative damping, inverted range, … */
  CBOX2D_ERR_LOCKED = -9,          /* called while the world is stepping */
  CBOX2D_ERR_NO_MEMORY = -10,
  CBOX2D_ERR_WRONG_KIND = -11      /* e.g. a fixture on a boundary body that expects edges */
} cbox2d_status;

typedef struct cbox2d_world cbox2d_world;

typedef struct {
  float x;
  float y;
} cbox2d_vec2;

typedef enum {
  CBOX2D_BODY_STATIC = 0,
  CBOX2D_BODY_KINEMATIC = 1,
  CBOX2D_BODY_DYNAMIC = 2
} cbox2d_body_type;

/** A body's pose and motion, read after a step. */
typedef struct {
  float x, y, angle;
  float vx, vy, angular_velocity;
  bool awake;
} cbox2d_body_state;

/** A contact that began or ended during the last step (or during a destroy call). */
typedef struct {
  bool began;
  int32_t body_a, tag_a;  /* tag: the value given when the fixture was added */
  int32_t body_b, tag_b;
  /* On `began`: the mean contact point (metres), and its projections onto the surfaces of
   * fixture A and fixture B. has_point is false on `ended`. */
  cbox2d_vec2 point, point_on_a, point_on_b;
  bool has_point;
} cbox2d_contact_event;

/* ---- world ---------------------------------------------------------------------------- */

/** A world with zero gravity, sleeping and continuous physics on. NULL if out of memory. */
cbox2d_world *cbox2d_world_create(void);
void cbox2d_world_destroy(cbox2d_world *world);
/**
 * One fixed step. Contact events of the step are queued for cbox2d_world_contact_events.
 * An item polygon touching a static polygon (a boundary wall, an anchored item) is solved against
 * the static face, and a flat impact on it is pushed out and bounced through the point under the
 * item's centre of mass, so that a flat, symmetric drop gets no sideways speed and no turn.
 */
int cbox2d_world_step(cbox2d_world *world, float dt, int velocity_iterations,
                      int position_iterations);
/** At most `limit` contacts at once: further overlapping pairs are not made contacts (they pass
 * through each other) while the world holds that many. Default: no limit. */
int cbox2d_world_set_contact_limit(cbox2d_world *world, int32_t limit);
/** How many pairs the contact limit has refused since the world was created. */
int64_t cbox2d_world_refused_contacts(const cbox2d_world *world);
/** A step's pair search does about `limit` work at most (an overlap of a moved proxy's box
 * visited counts 1, a pair that may collide 8 in all; the query that reaches the limit ends whole):
 * the moved proxies beyond wait, once each, in order, for the next step, and their pairs are met
 * then. Default: no limit. */
int cbox2d_world_set_pair_search_limit(cbox2d_world *world, int32_t limit);
/** How many times a moved proxy whose shapes can collide has waited for a later step under the
 * pair search limit (counted at the end of each step). */
int64_t cbox2d_world_deferred_proxies(const cbox2d_world *world);
/** Entries of the broad phase's move buffer now: the proxies moved since the last step, with
 * repeats (kept within twice the proxies and 64 by the calls that add them). */
int32_t cbox2d_world_move_buffer_length(cbox2d_world *world);
/** Pair rounds run by the shim's own broad-phase pair finder (pairs.cpp) in this process: it is
 * the one Box2D calls only if this count grows as worlds step. */
uint64_t cbox2d_pair_rounds(void);
/** Contacts the world holds now (pairs whose boxes overlap, touching or not). */
int32_t cbox2d_world_contact_count(const cbox2d_world *world);
/** Number of queued contact events; copy them with cbox2d_world_copy_contact_events. */
int32_t cbox2d_world_contact_event_count(const cbox2d_world *world);
/** Copies up to capacity queued events into out and clears the queue; returns how many. */
int32_t cbox2d_world_take_contact_events(cbox2d_world *world, cbox2d_contact_event *out,
                                         int32_t capacity);
int32_t cbox2d_world_body_count(const cbox2d_world *world);
int32_t cbox2d_world_joint_count(const cbox2d_world *world);

/* ---- bodies ----------------------------------------------------------------------------- */

/** Creates a body; returns its handle (>= 0) or a status. */
int32_t cbox2d_body_create(cbox2d_world *world, cbox2d_body_type type, float x, float y,
                           float angle);
int cbox2d_body_destroy(cbox2d_world *world, int32_t body);
int cbox2d_body_set_type(cbox2d_world *world, int32_t body, cbox2d_body_type type);

/*
 * Fixtures. Polygons and edges carry Box2D's collision skin (b2_polygonRadius, 1 cm); the shim
 * insets polygons by their skin so that the skin's outer surface is the visual outline, and gives
 * edges no skin, so a resting item touches what it rests on. Fixtures have no density: the mass
 * is set explicitly with cbox2d_body_set_mass. They start with friction 0 and restitution 0
 * (UIKit's item defaults, until cbox2d_body_set_material), except those of a boundary body
 * (cbox2d_body_make_boundary first), which keep Box2D's default friction 0.2. Friction mixes as
 * √(a·b), so an item of friction 0 slides freely on a boundary. `tag` is reported back in contact
 * events.
 */
int cbox2d_body_add_box(cbox2d_world *world, int32_t body, float half_width, float half_height,
                        int32_t tag);
int cbox2d_body_add_circle(cbox2d_world *world, int32_t body, cbox2d_vec2 center, float radius,
                           int32_t tag);
/** A convex polygon of 3…8 vertices (any winding) relative to the body origin. */
int cbox2d_body_add_polygon(cbox2d_world *world, int32_t body, const cbox2d_vec2 *vertices,
                            int32_t count, int32_t tag);
/** Checks, without a world, that cbox2d_body_add_polygon would accept these vertices. */
int cbox2d_polygon_check(const cbox2d_vec2 *vertices, int32_t count);
/** A two-sided segment (for boundaries). */
int cbox2d_body_add_edge(cbox2d_world *world, int32_t body, cbox2d_vec2 a, cbox2d_vec2 b,
                         int32_t tag);
/** Removes every fixture carrying tag; returns how many were removed. */
int cbox2d_body_remove_fixtures(cbox2d_world *world, int32_t body, int32_t tag);

/** Mass (kg), centre of mass (body-local) and rotational inertia about the centre of mass. */
int cbox2d_body_set_mass(cbox2d_world *world, int32_t body, float mass, cbox2d_vec2 center,
                         float inertia_about_center);
int cbox2d_body_set_material(cbox2d_world *world, int32_t body, float friction,
                             float restitution);
int cbox2d_body_set_damping(cbox2d_world *world, int32_t body, float linear, float angular);
int cbox2d_body_set_fixed_rotation(cbox2d_world *world, int32_t body, bool fixed);
int cbox2d_body_set_transform(cbox2d_world *world, int32_t body, float x, float y, float angle);
int cbox2d_body_set_velocity(cbox2d_world *world, int32_t body, float vx, float vy,
                             float angular_velocity);
int cbox2d_body_set_awake(cbox2d_world *world, int32_t body, bool awake);
/** Marks a body as held by a finger: while held, its contacts have no restitution. */
int cbox2d_body_set_held(cbox2d_world *world, int32_t body, bool held);
int cbox2d_body_get_state(const cbox2d_world *world, int32_t body, cbox2d_body_state *out);
/** Mass in kg as Box2D holds it (0 for static and kinematic bodies). */
float cbox2d_body_get_mass(const cbox2d_world *world, int32_t body);
/** A force (N) at a world point; with wake false a sleeping body ignores it, as world gravity. */
int cbox2d_body_apply_force(cbox2d_world *world, int32_t body, cbox2d_vec2 force,
                            cbox2d_vec2 world_point, bool wake);
/** The sum of the forces (N) applied since the last step that Box2D will apply at the next one
 * (zero for a sleeping or non-dynamic body). */
int cbox2d_body_get_force(const cbox2d_world *world, int32_t body, cbox2d_vec2 *out);
int cbox2d_body_apply_impulse(cbox2d_world *world, int32_t body, cbox2d_vec2 impulse,
                              cbox2d_vec2 world_point, bool wake);

/*
 * Collision filtering. Two item bodies collide when their item-group sets intersect; an item
 * body meets a boundary body when the boundary's group is in the item's boundary-group set.
 * Bodies that are neither (anchors) collide with nothing. Groups are small caller-chosen ids.
 */
int cbox2d_body_set_item_groups(cbox2d_world *world, int32_t body, const uint32_t *item_groups,
                                int32_t item_count, const uint32_t *boundary_groups,
                                int32_t boundary_count);
int cbox2d_body_make_boundary(cbox2d_world *world, int32_t body, uint32_t group);

/* ---- joints ----------------------------------------------------------------------------- */

/**
 * A distance joint between world points anchor_a (on a) and anchor_b (on b). frequency 0 is
 * rigid within [min_length, max_length]; frequency > 0 is a spring of that frequency (Hz) and
 * damping ratio toward `length`. Returns a joint handle or a status.
 */
int32_t cbox2d_joint_create_distance(cbox2d_world *world, int32_t a, int32_t b,
                                     cbox2d_vec2 anchor_a, cbox2d_vec2 anchor_b, float length,
                                     float min_length, float max_length, float frequency,
                                     float damping_ratio);
int cbox2d_joint_set_distance(cbox2d_world *world, int32_t joint, float length,
                              float min_length, float max_length, float frequency,
                              float damping_ratio);
/** Sliding along axis (world) through anchor; no relative rotation; range limits translation. */
int32_t cbox2d_joint_create_prismatic(cbox2d_world *world, int32_t a, int32_t b,
                                      cbox2d_vec2 anchor, cbox2d_vec2 axis, bool limit,
                                      float lower, float upper);
/** Fuses a and b at anchor. */
int32_t cbox2d_joint_create_weld(cbox2d_world *world, int32_t a, int32_t b, cbox2d_vec2 anchor);
/** Hinge at anchor; friction_torque (N·m) resists rotation; optional angle limits. */
int32_t cbox2d_joint_create_revolute(cbox2d_world *world, int32_t a, int32_t b,
                                     cbox2d_vec2 anchor, float friction_torque, bool limit,
                                     float lower, float upper);
/**
 * A soft point constraint (Box2D's mouse joint): the body point now at `grab_point` (world) is
 * pulled toward the target, initially grab_point, with the given frequency (Hz) and damping
 * ratio. `ground` is any static body. Move the target with cbox2d_joint_set_mouse.
 */
int32_t cbox2d_joint_create_mouse(cbox2d_world *world, int32_t ground, int32_t body,
                                  cbox2d_vec2 grab_point, float frequency, float damping_ratio,
                                  float max_force);
int cbox2d_joint_set_mouse(cbox2d_world *world, int32_t joint, cbox2d_vec2 target,
                           float frequency, float damping_ratio, float max_force);
int cbox2d_joint_destroy(cbox2d_world *world, int32_t joint);

#ifdef __cplusplus
}
#endif

#endif /* CBOX2D_H */
