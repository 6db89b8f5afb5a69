# SPDX-License-Identifier: GPL-2.0-only
# framebench profile: a Unity game. The main thread runs the scripts and
# the frame's simulation and hands the frame to the graphics device
# worker, which records and submits it; the job system's workers take the
# parallel parts of both. Threads are named as Unity names them (lavd's
# game profiles match them): "UnityMain", "UnityGfxDeviceWorker" which
# Linux cuts to "UnityGfxDeviceW", and "Job.Worker N" (per-thread tables
# of Unity games on Linux and Android list exactly these).
name        unity
description Unity: main thread, graphics device worker, Job.Worker pool

fps              60
frames-in-flight 2
workers          4 thread="Job.Worker %d"

process compositor

input period=1ms     work=20us..60us
audio period=10667us work=150us..400us
net   period=20ms    work=100us..300us

# UnityMain: scripts (Update), animation and physics as jobs, LateUpdate.
stage main thread=UnityMain
  work   500us..1200us
  fanout 4 150us..400us
  work   200us..500us
  fanout 4 100us..300us
  fanout 3 100us..250us
  work   300us..700us
  fanout 4 80us..200us
  fanout 2 60us..150us

# UnityGfxDeviceW: the render loop's commands, culling and batching jobs.
stage gfx thread=UnityGfxDeviceW
  work   400us..900us
  fanout 4 100us..300us
  work   200us..500us
  fanout 3 80us..200us
  fanout 2 60us..150us

# The driver's submission thread.
stage driver
  work   50us..150us

stage present process=compositor
  work   100us..200us
