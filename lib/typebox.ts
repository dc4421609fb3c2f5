/**
 * TypeBox's `Type` builder from its CommonJS build, not its ES modules. The ESM build is some 200
 * files, and every ES module a program on the sources loads passes through tsx's loader hooks, so
 * importing it cost each process 0.8 CPU-s against 0.2 required (Node 20); every CLI and
 * experiment worker loads the schemas. The two builds are one library: a schema's kind is a
 * Symbol.for() key, which both share. Types come from the package's declarations as usual.
 */
import { createRequire } from 'node:module';
import type * as TypeBox from '@sinclair/typebox';

export const { Type } = createRequire(import.meta.url)('@sinclair/typebox') as typeof TypeBox;
