/**
 * The host calls of a running eval: the book of the calls a guest has open and the reader of a batch of results
 * (the queue that hands calls to a host in batches is API: {@code HostCallQueue}). Internal: not exported by the
 * module.
 */
package io.github.langchaingraalvm.sandbox.hostcall;
