// Joints: distance (rigid, spring, rope), prismatic, weld, revolute and mouse.
#include <algorithm>
#include <new>

#include "shim_world.hpp"

using namespace cbox2d;

namespace {

// Box2D's own "huge" length (b2_huge, 100 km): an unbounded maximum for springs.
constexpr float kHugeLength = 100000.0f * b2_lengthUnitsPerMeter;

/// Validates the world and a distinct pair of bodies.
int bodyPair(cbox2d_world *w, int32_t ha, int32_t hb, b2Body **a, b2Body **b) {
  if (int s = checkMutable(w); s != CBOX2D_OK) return s;
  *a = lookupBody(w, ha);
  *b = lookupBody(w, hb);
  if (*a == nullptr || *b == nullptr) return CBOX2D_ERR_BAD_HANDLE;
  if (*a == *b) return CBOX2D_ERR_SAME_BODY;
  return CBOX2D_OK;
}

int32_t store(cbox2d_world *w, b2JointDef &def) {
  try {
    int32_t handle;
    if (!w->freeJoints.empty()) {
      handle = w->freeJoints.back();
      w->freeJoints.pop_back();
    } else {
      handle = static_cast<int32_t>(w->joints.size());
      w->joints.push_back(nullptr);
    }
    def.userData.pointer = static_cast<uintptr_t>(handle);
    def.collideConnected = false;  // UIKit: attached items do not collide with each other
    w->joints[static_cast<size_t>(handle)] = w->world.CreateJoint(&def);
    return handle;
  } catch (...) {
    return CBOX2D_ERR_NO_MEMORY;
  }
}

int checkSpring(float frequency, float ratio) {
  if (!finite(frequency) || !finite(ratio)) return CBOX2D_ERR_NON_FINITE;
  if (frequency < 0.0f || ratio < 0.0f) return CBOX2D_ERR_OUT_OF_RANGE;
  return CBOX2D_OK;
}

int checkLengths(float length, float minLength, float maxLength) {
  if (!finite(length) || !finite(minLength) || !finite(maxLength)) return CBOX2D_ERR_NON_FINITE;
  if (length < 0.0f || minLength < 0.0f || maxLength < minLength) return CBOX2D_ERR_OUT_OF_RANGE;
  return CBOX2D_OK;
}

void configureDistance(b2DistanceJoint *j, float length, float minLength, float maxLength,
                       float frequency, float ratio) {
  // Order matters: each setter clamps against the others' current values.
  j->SetMinLength(b2_linearSlop);
  j->SetMaxLength(std::min(maxLength, kHugeLength));
  j->SetMinLength(minLength);
  j->SetLength(length);
  float k = 0.0f, c = 0.0f;
  if (frequency > 0.0f) b2LinearStiffness(k, c, frequency, ratio, j->GetBodyA(), j->GetBodyB());
  j->SetStiffness(k);
  j->SetDamping(c);
}

float mouseMassFor(b2Body *body) { return body->GetMass() > 0.0f ? body->GetMass() : 1.0f; }

void configureMouse(b2MouseJoint *j, float frequency, float ratio, float maxForce) {
  float m = mouseMassFor(j->GetBodyB());
  float omega = 2.0f * b2_pi * frequency;
  j->SetStiffness(m * omega * omega);
  j->SetDamping(2.0f * m * ratio * omega);
  j->SetMaxForce(maxForce);
}

}  // namespace

extern "C" {

int32_t cbox2d_joint_create_distance(cbox2d_world *w, int32_t ha, int32_t hb, cbox2d_vec2 anchorA,
                                     cbox2d_vec2 anchorB, float length, float minLength,
                                     float maxLength, float frequency, float ratio) {
  b2Body *a, *b;
  if (int s = bodyPair(w, ha, hb, &a, &b); s != CBOX2D_OK) return s;
  if (!finite(anchorA) || !finite(anchorB)) return CBOX2D_ERR_NON_FINITE;
  if (int s = checkLengths(length, minLength, maxLength); s != CBOX2D_OK) return s;
  if (int s = checkSpring(frequency, ratio); s != CBOX2D_OK) return s;
  b2DistanceJointDef def;
  def.Initialize(a, b, vec(anchorA), vec(anchorB));
  int32_t handle = store(w, def);
  if (handle >= 0)
    configureDistance(static_cast<b2DistanceJoint *>(w->joints[static_cast<size_t>(handle)]),
                      length, minLength, maxLength, frequency, ratio);
  return handle;
}

int cbox2d_joint_set_distance(cbox2d_world *w, int32_t handle, float length, float minLength,
                              float maxLength, float frequency, float ratio) {
  if (int s = checkMutable(w); s != CBOX2D_OK) return s;
  b2Joint *j = lookupJoint(w, handle);
  if (j == nullptr) return CBOX2D_ERR_BAD_HANDLE;
  if (j->GetType() != e_distanceJoint) return CBOX2D_ERR_WRONG_KIND;
  if (int s = checkLengths(length, minLength, maxLength); s != CBOX2D_OK) return s;
  if (int s = checkSpring(frequency, ratio); s != CBOX2D_OK) return s;
  configureDistance(static_cast<b2DistanceJoint *>(j), length, minLength, maxLength, frequency,
                    ratio);
  j->GetBodyA()->SetAwake(true);
  j->GetBodyB()->SetAwake(true);
  return CBOX2D_OK;
}

int32_t cbox2d_joint_create_prismatic(cbox2d_world *w, int32_t ha, int32_t hb, cbox2d_vec2 anchor,
                                      cbox2d_vec2 axis, bool limit, float lower, float upper) {
  b2Body *a, *b;
  if (int s = bodyPair(w, ha, hb, &a, &b); s != CBOX2D_OK) return s;
  if (!finite(anchor) || !finite(axis) || !finite(lower) || !finite(upper))
    return CBOX2D_ERR_NON_FINITE;
  b2Vec2 unit = vec(axis);
  if (unit.Normalize() < b2_epsilon) return CBOX2D_ERR_DEGENERATE;
  if (lower > upper) return CBOX2D_ERR_OUT_OF_RANGE;
  b2PrismaticJointDef def;
  def.Initialize(a, b, vec(anchor), unit);
  def.enableLimit = limit;
  def.lowerTranslation = lower;
  def.upperTranslation = upper;
  return store(w, def);
}

int32_t cbox2d_joint_create_weld(cbox2d_world *w, int32_t ha, int32_t hb, cbox2d_vec2 anchor) {
  b2Body *a, *b;
  if (int s = bodyPair(w, ha, hb, &a, &b); s != CBOX2D_OK) return s;
  if (!finite(anchor)) return CBOX2D_ERR_NON_FINITE;
  b2WeldJointDef def;
  def.Initialize(a, b, vec(anchor));
  return store(w, def);
}

int32_t cbox2d_joint_create_revolute(cbox2d_world *w, int32_t ha, int32_t hb, cbox2d_vec2 anchor,
                                     float frictionTorque, bool limit, float lower, float upper) {
  b2Body *a, *b;
  if (int s = bodyPair(w, ha, hb, &a, &b); s != CBOX2D_OK) return s;
  if (!finite(anchor) || !finite(frictionTorque) || !finite(lower) || !finite(upper))
    return CBOX2D_ERR_NON_FINITE;
  if (frictionTorque < 0.0f || lower > upper) return CBOX2D_ERR_OUT_OF_RANGE;
  b2RevoluteJointDef def;
  def.Initialize(a, b, vec(anchor));
  // Friction torque is a motor that tries to hold the relative speed at zero.
  def.enableMotor = frictionTorque > 0.0f;
  def.motorSpeed = 0.0f;
  def.maxMotorTorque = frictionTorque;
  def.enableLimit = limit;
  def.lowerAngle = lower;
  def.upperAngle = upper;
  return store(w, def);
}

int32_t cbox2d_joint_create_mouse(cbox2d_world *w, int32_t ground, int32_t hb,
                                  cbox2d_vec2 grabPoint, float frequency, float ratio,
                                  float maxForce) {
  b2Body *a, *b;
  if (int s = bodyPair(w, ground, hb, &a, &b); s != CBOX2D_OK) return s;
  if (!finite(grabPoint) || !finite(maxForce)) return CBOX2D_ERR_NON_FINITE;
  if (int s = checkSpring(frequency, ratio); s != CBOX2D_OK) return s;
  if (frequency <= 0.0f || maxForce < 0.0f) return CBOX2D_ERR_OUT_OF_RANGE;
  b2MouseJointDef def;
  def.bodyA = a;
  def.bodyB = b;
  def.target = vec(grabPoint);
  int32_t handle = store(w, def);
  if (handle >= 0)
    configureMouse(static_cast<b2MouseJoint *>(w->joints[static_cast<size_t>(handle)]), frequency,
                   ratio, maxForce);
  return handle;
}

int cbox2d_joint_set_mouse(cbox2d_world *w, int32_t handle, cbox2d_vec2 target, float frequency,
                           float ratio, float maxForce) {
  if (int s = checkMutable(w); s != CBOX2D_OK) return s;
  b2Joint *j = lookupJoint(w, handle);
  if (j == nullptr) return CBOX2D_ERR_BAD_HANDLE;
  if (j->GetType() != e_mouseJoint) return CBOX2D_ERR_WRONG_KIND;
  if (!finite(target) || !finite(maxForce)) return CBOX2D_ERR_NON_FINITE;
  if (int s = checkSpring(frequency, ratio); s != CBOX2D_OK) return s;
  if (frequency <= 0.0f || maxForce < 0.0f) return CBOX2D_ERR_OUT_OF_RANGE;
  auto *mouse = static_cast<b2MouseJoint *>(j);
  configureMouse(mouse, frequency, ratio, maxForce);
  mouse->SetTarget(vec(target));  // wakes the body when the target moves
  mouse->GetBodyB()->SetAwake(true);
  return CBOX2D_OK;
}

int cbox2d_joint_destroy(cbox2d_world *w, int32_t handle) {
  if (int s = checkMutable(w); s != CBOX2D_OK) return s;
  b2Joint *j = lookupJoint(w, handle);
  if (j == nullptr) return CBOX2D_ERR_BAD_HANDLE;
  b2Body *a = j->GetBodyA();
  b2Body *b = j->GetBodyB();
  w->world.DestroyJoint(j);
  a->SetAwake(true);
  b->SetAwake(true);
  w->joints[static_cast<size_t>(handle)] = nullptr;
  w->freeJoints.push_back(handle);
  return CBOX2D_OK;
}

}  // extern "C"
