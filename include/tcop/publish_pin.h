/*
 * publish_pin.h: the writing of publishing pins to the registry (executor/publish.h
 * has what they are): rocklake_publish_pin() and rocklake_publish_unpin() commit a
 * row of rl_publish_pin through the writer, as CREATE DATABASE commits to the
 * registry (tcop/dbcommands.h), so neither runs inside a transaction block (25001).
 */
#ifndef RL_PUBLISH_PIN_H
#define RL_PUBLISH_PIN_H

/* At backend start: hand the executor the function that writes pins. */
void		InitPublishPins(void);

#endif
