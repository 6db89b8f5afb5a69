# SPDX-License-Identifier: GPL-2.0-only
# framebench profile: an Unreal Engine game. Game thread, render thread,
# RHI thread and the task-graph workers; the compositor presents.
# Threads are named as Unreal names them on Linux (lavd's game profiles
# match them): FRunnableThreadLinux::PreRun cuts a name longer than 15
# characters by dropping "Thread" ("TaskGraphThreadNP 0" -> "TaskGraphNP 0"),
# the rendering thread is "RenderThread N" (BuildRenderingThreadName), the
# main thread "GameThread"; the driver and the compositor are not Unreal's.
name        unreal
description Unreal Engine: game thread, render thread, RHI thread, task-graph workers

fps              60
frames-in-flight 2
workers          6 thread="TaskGraphNP %d"

process compositor
mutex   uobject

input period=1ms     work=20us..60us
audio period=5333us  work=100us..250us
net   period=33333us work=100us..300us lock=uobject hold=10us..40us

# GameThread: tick groups with task-graph fan-outs.
stage game thread=GameThread
  work   300us..600us
  fanout 6 150us..500us
  work   200us..500us
  fanout 4 100us..400us
  fanout 4 100us..300us lock=uobject hold=5us..20us
  lock   uobject 20us..60us
  work   200us..400us
  fanout 3 100us..200us
  fanout 4 80us..200us

# RenderThread: visibility and mesh draw command generation in parallel.
stage render thread="RenderThread 1"
  work   400us..800us
  fanout 6 100us..300us
  work   200us..400us
  fanout 6 100us..300us

# RHIThread: translates the command lists, some in parallel.
stage rhi thread=RHIThread
  work   300us..600us
  fanout 2 100us..200us

# The driver's submission thread.
stage driver
  work   50us..150us

stage present process=compositor
  work   100us..200us
