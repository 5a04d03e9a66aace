// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { isPlainObject, type JsonRecord } from "./records.js";

// records.ts's extractRecords for answers too large to parse at once (a report window of a
// busy organisation is tens of megabytes; issue 5 asks for a million records in < 200 MiB).
// Same rule, applied to JSON text fed in chunks:
//
// - a top-level array is the record list (non-objects become `{ value }`);
// - an object with exactly one array of objects holds the record list;
// - otherwise the whole answer is one record (or none, for null and "").
//
// Two passes over the text, both without building the document:
// 1. `JsonShapeScanner` checks the structure (brackets, strings, commas) and learns the
//    shape: which top-level member, if any, is the one array of objects;
// 2. the same scanner, told which container holds the records, hands over each record's
//    text, which is then parsed alone (JSON.parse checks every record in full).
// Scalars outside the records are checked loosely (a run of number/literal characters);
// whatever JSON.parse does not see in pass 2 is not part of the output.
//
// Pure: the caller reads the file or the network and feeds strings.

export type ResponseShape = /** Nothing but whitespace: no records. */
{
  kind: "empty";
}
/** A top-level array: its elements are the records. */ | {
  kind: "array";
}
/** An object with exactly one array of objects: member number `member` (in text order) holds the records. */ | {
  kind: "object-with-list";
  member: number;
}
/** Anything else (an object without exactly one list, a string, a number): parse it whole. */ | {
  kind: "whole";
};
export class MalformedJsonError extends Error {}

/**
 * Real report records nest a few levels. A document nested deeper is refused here: the
 * records would be parsed, but walking them (flattening for CSV, printing) would overflow
 * the stack (issue 13 item 5). Same limit as api/answers.ts's MAX_JSON_DEPTH.
 */
export const MAX_DEPTH = 256;
const OBJ = 1;
const ARR = 2;

// What may come next.
const VALUE = 0; // a value (at the top, after ":" or after "," in an array)
const VALUE_OR_CLOSE = 1; // right after "[": a value or "]"
const KEY = 2; // after "," in an object: a key
const KEY_OR_CLOSE = 3; // right after "{": a key or "}"
const COLON = 4;
const AFTER = 5; // after a value: "," or the container's close (or the end at the top)

function isWhitespace(c: number): boolean {
  if (stryMutAct_9fa48("3590")) {
    {}
  } else {
    stryCov_9fa48("3590");
    return stryMutAct_9fa48("3593") ? (c === 0x20 || c === 0x0a || c === 0x0d) && c === 0x09 : stryMutAct_9fa48("3592") ? false : stryMutAct_9fa48("3591") ? true : (stryCov_9fa48("3591", "3592", "3593"), (stryMutAct_9fa48("3595") ? (c === 0x20 || c === 0x0a) && c === 0x0d : stryMutAct_9fa48("3594") ? false : (stryCov_9fa48("3594", "3595"), (stryMutAct_9fa48("3597") ? c === 0x20 && c === 0x0a : stryMutAct_9fa48("3596") ? false : (stryCov_9fa48("3596", "3597"), (stryMutAct_9fa48("3599") ? c !== 0x20 : stryMutAct_9fa48("3598") ? false : (stryCov_9fa48("3598", "3599"), c === 0x20)) || (stryMutAct_9fa48("3601") ? c !== 0x0a : stryMutAct_9fa48("3600") ? false : (stryCov_9fa48("3600", "3601"), c === 0x0a)))) || (stryMutAct_9fa48("3603") ? c !== 0x0d : stryMutAct_9fa48("3602") ? false : (stryCov_9fa48("3602", "3603"), c === 0x0d)))) || (stryMutAct_9fa48("3605") ? c !== 0x09 : stryMutAct_9fa48("3604") ? false : (stryCov_9fa48("3604", "3605"), c === 0x09)));
  }
}

/** Characters of numbers and of true, false, null. */
function isScalarChar(c: number): boolean {
  if (stryMutAct_9fa48("3606")) {
    {}
  } else {
    stryCov_9fa48("3606");
    return stryMutAct_9fa48("3609") ? (c >= 0x30 && c <= 0x39 || c >= 0x61 && c <= 0x7a || c >= 0x41 && c <= 0x5a || c === 0x2b || c === 0x2d) && c === 0x2e : stryMutAct_9fa48("3608") ? false : stryMutAct_9fa48("3607") ? true : (stryCov_9fa48("3607", "3608", "3609"), (stryMutAct_9fa48("3611") ? (c >= 0x30 && c <= 0x39 || c >= 0x61 && c <= 0x7a || c >= 0x41 && c <= 0x5a || c === 0x2b) && c === 0x2d : stryMutAct_9fa48("3610") ? false : (stryCov_9fa48("3610", "3611"), (stryMutAct_9fa48("3613") ? (c >= 0x30 && c <= 0x39 || c >= 0x61 && c <= 0x7a || c >= 0x41 && c <= 0x5a) && c === 0x2b : stryMutAct_9fa48("3612") ? false : (stryCov_9fa48("3612", "3613"), (stryMutAct_9fa48("3615") ? (c >= 0x30 && c <= 0x39 || c >= 0x61 && c <= 0x7a) && c >= 0x41 && c <= 0x5a : stryMutAct_9fa48("3614") ? false : (stryCov_9fa48("3614", "3615"), (stryMutAct_9fa48("3617") ? c >= 0x30 && c <= 0x39 && c >= 0x61 && c <= 0x7a : stryMutAct_9fa48("3616") ? false : (stryCov_9fa48("3616", "3617"), (stryMutAct_9fa48("3619") ? c >= 0x30 || c <= 0x39 : stryMutAct_9fa48("3618") ? false : (stryCov_9fa48("3618", "3619"), (stryMutAct_9fa48("3622") ? c < 0x30 : stryMutAct_9fa48("3621") ? c > 0x30 : stryMutAct_9fa48("3620") ? true : (stryCov_9fa48("3620", "3621", "3622"), c >= 0x30)) && (stryMutAct_9fa48("3625") ? c > 0x39 : stryMutAct_9fa48("3624") ? c < 0x39 : stryMutAct_9fa48("3623") ? true : (stryCov_9fa48("3623", "3624", "3625"), c <= 0x39)))) || (stryMutAct_9fa48("3627") ? c >= 0x61 || c <= 0x7a : stryMutAct_9fa48("3626") ? false : (stryCov_9fa48("3626", "3627"), (stryMutAct_9fa48("3630") ? c < 0x61 : stryMutAct_9fa48("3629") ? c > 0x61 : stryMutAct_9fa48("3628") ? true : (stryCov_9fa48("3628", "3629", "3630"), c >= 0x61)) && (stryMutAct_9fa48("3633") ? c > 0x7a : stryMutAct_9fa48("3632") ? c < 0x7a : stryMutAct_9fa48("3631") ? true : (stryCov_9fa48("3631", "3632", "3633"), c <= 0x7a)))))) || (stryMutAct_9fa48("3635") ? c >= 0x41 || c <= 0x5a : stryMutAct_9fa48("3634") ? false : (stryCov_9fa48("3634", "3635"), (stryMutAct_9fa48("3638") ? c < 0x41 : stryMutAct_9fa48("3637") ? c > 0x41 : stryMutAct_9fa48("3636") ? true : (stryCov_9fa48("3636", "3637", "3638"), c >= 0x41)) && (stryMutAct_9fa48("3641") ? c > 0x5a : stryMutAct_9fa48("3640") ? c < 0x5a : stryMutAct_9fa48("3639") ? true : (stryCov_9fa48("3639", "3640", "3641"), c <= 0x5a)))))) || (stryMutAct_9fa48("3643") ? c !== 0x2b : stryMutAct_9fa48("3642") ? false : (stryCov_9fa48("3642", "3643"), c === 0x2b)))) || (stryMutAct_9fa48("3645") ? c !== 0x2d : stryMutAct_9fa48("3644") ? false : (stryCov_9fa48("3644", "3645"), c === 0x2d)))) || (stryMutAct_9fa48("3647") ? c !== 0x2e : stryMutAct_9fa48("3646") ? false : (stryCov_9fa48("3646", "3647"), c === 0x2e)));
  }
}
interface Member {
  key: string;
  isArray: boolean;
  allObjects: boolean;
}
export interface ScannerOptions {
  /** Pass 2: the container whose direct elements are wanted, and where each one goes. */
  capture?: {
    target: "top-array" | {
      member: number;
    };
    onElement: (text: string) => void;
  } | undefined;
}
export class JsonShapeScanner {
  private readonly stack: number[] = stryMutAct_9fa48("3648") ? ["Stryker was here"] : (stryCov_9fa48("3648"), []);
  private expect = VALUE;
  private inString = stryMutAct_9fa48("3649") ? true : (stryCov_9fa48("3649"), false);
  private escaped = stryMutAct_9fa48("3650") ? true : (stryCov_9fa48("3650"), false);
  private inScalar = stryMutAct_9fa48("3651") ? true : (stryCov_9fa48("3651"), false);
  private stringIsKey = stryMutAct_9fa48("3652") ? true : (stryCov_9fa48("3652"), false);
  private topKind: "none" | "object" | "array" | "scalar" = stryMutAct_9fa48("3653") ? "" : (stryCov_9fa48("3653"), "none");
  private done = stryMutAct_9fa48("3654") ? true : (stryCov_9fa48("3654"), false);
  private offset = 0;

  // Top-level members (when the top is an object).
  private readonly members: Member[] = stryMutAct_9fa48("3655") ? ["Stryker was here"] : (stryCov_9fa48("3655"), []);
  private memberIndex = stryMutAct_9fa48("3656") ? +1 : (stryCov_9fa48("3656"), -1);
  private keyPieces: string[] = stryMutAct_9fa48("3657") ? ["Stryker was here"] : (stryCov_9fa48("3657"), []);
  private keyStart = stryMutAct_9fa48("3658") ? +1 : (stryCov_9fa48("3658"), -1);
  private pendingKey = stryMutAct_9fa48("3659") ? "Stryker was here!" : (stryCov_9fa48("3659"), "");

  // Capture of the target container's elements (pass 2).
  private readonly captureLevel: number;
  private readonly captureMember: number;
  private capturing = stryMutAct_9fa48("3660") ? true : (stryCov_9fa48("3660"), false);
  private capturePieces: string[] = stryMutAct_9fa48("3661") ? ["Stryker was here"] : (stryCov_9fa48("3661"), []);
  private captureStart = 0;
  constructor(private readonly options: ScannerOptions = {}) {
    if (stryMutAct_9fa48("3662")) {
      {}
    } else {
      stryCov_9fa48("3662");
      const target = stryMutAct_9fa48("3663") ? options.capture.target : (stryCov_9fa48("3663"), options.capture?.target);
      this.captureLevel = (stryMutAct_9fa48("3666") ? target !== undefined : stryMutAct_9fa48("3665") ? false : stryMutAct_9fa48("3664") ? true : (stryCov_9fa48("3664", "3665", "3666"), target === undefined)) ? stryMutAct_9fa48("3667") ? +1 : (stryCov_9fa48("3667"), -1) : (stryMutAct_9fa48("3670") ? target !== "top-array" : stryMutAct_9fa48("3669") ? false : stryMutAct_9fa48("3668") ? true : (stryCov_9fa48("3668", "3669", "3670"), target === (stryMutAct_9fa48("3671") ? "" : (stryCov_9fa48("3671"), "top-array")))) ? 1 : 2;
      this.captureMember = (stryMutAct_9fa48("3674") ? target === undefined && target === "top-array" : stryMutAct_9fa48("3673") ? false : stryMutAct_9fa48("3672") ? true : (stryCov_9fa48("3672", "3673", "3674"), (stryMutAct_9fa48("3676") ? target !== undefined : stryMutAct_9fa48("3675") ? false : (stryCov_9fa48("3675", "3676"), target === undefined)) || (stryMutAct_9fa48("3678") ? target !== "top-array" : stryMutAct_9fa48("3677") ? false : (stryCov_9fa48("3677", "3678"), target === (stryMutAct_9fa48("3679") ? "" : (stryCov_9fa48("3679"), "top-array")))))) ? stryMutAct_9fa48("3680") ? +1 : (stryCov_9fa48("3680"), -1) : target.member;
    }
  }
  private fail(message: string, index: number): never {
    if (stryMutAct_9fa48("3681")) {
      {}
    } else {
      stryCov_9fa48("3681");
      throw new MalformedJsonError(stryMutAct_9fa48("3682") ? `` : (stryCov_9fa48("3682"), `${message} at character ${stryMutAct_9fa48("3683") ? this.offset + index - 1 : (stryCov_9fa48("3683"), (stryMutAct_9fa48("3684") ? this.offset - index : (stryCov_9fa48("3684"), this.offset + index)) + 1)}`));
    }
  }

  /** Whether values at the current level are the elements to capture. */
  private atCaptureLevel(): boolean {
    if (stryMutAct_9fa48("3685")) {
      {}
    } else {
      stryCov_9fa48("3685");
      if (stryMutAct_9fa48("3688") ? this.stack.length === this.captureLevel : stryMutAct_9fa48("3687") ? false : stryMutAct_9fa48("3686") ? true : (stryCov_9fa48("3686", "3687", "3688"), this.stack.length !== this.captureLevel)) return stryMutAct_9fa48("3689") ? true : (stryCov_9fa48("3689"), false);
      if (stryMutAct_9fa48("3692") ? this.captureLevel !== 1 : stryMutAct_9fa48("3691") ? false : stryMutAct_9fa48("3690") ? true : (stryCov_9fa48("3690", "3691", "3692"), this.captureLevel === 1)) return stryMutAct_9fa48("3695") ? this.stack[0] !== ARR : stryMutAct_9fa48("3694") ? false : stryMutAct_9fa48("3693") ? true : (stryCov_9fa48("3693", "3694", "3695"), this.stack[0] === ARR);
      return stryMutAct_9fa48("3698") ? this.stack[0] === OBJ && this.stack[1] === ARR || this.memberIndex === this.captureMember : stryMutAct_9fa48("3697") ? false : stryMutAct_9fa48("3696") ? true : (stryCov_9fa48("3696", "3697", "3698"), (stryMutAct_9fa48("3700") ? this.stack[0] === OBJ || this.stack[1] === ARR : stryMutAct_9fa48("3699") ? true : (stryCov_9fa48("3699", "3700"), (stryMutAct_9fa48("3702") ? this.stack[0] !== OBJ : stryMutAct_9fa48("3701") ? true : (stryCov_9fa48("3701", "3702"), this.stack[0] === OBJ)) && (stryMutAct_9fa48("3704") ? this.stack[1] !== ARR : stryMutAct_9fa48("3703") ? true : (stryCov_9fa48("3703", "3704"), this.stack[1] === ARR)))) && (stryMutAct_9fa48("3706") ? this.memberIndex !== this.captureMember : stryMutAct_9fa48("3705") ? true : (stryCov_9fa48("3705", "3706"), this.memberIndex === this.captureMember)));
    }
  }

  /** A value begins at `index` (its first character is `c`). */
  private valueStarts(c: number, index: number): void {
    if (stryMutAct_9fa48("3707")) {
      {}
    } else {
      stryCov_9fa48("3707");
      const level = this.stack.length;
      if (stryMutAct_9fa48("3710") ? level !== 0 : stryMutAct_9fa48("3709") ? false : stryMutAct_9fa48("3708") ? true : (stryCov_9fa48("3708", "3709", "3710"), level === 0)) {
        if (stryMutAct_9fa48("3711")) {
          {}
        } else {
          stryCov_9fa48("3711");
          this.topKind = (stryMutAct_9fa48("3714") ? c !== 0x7b : stryMutAct_9fa48("3713") ? false : stryMutAct_9fa48("3712") ? true : (stryCov_9fa48("3712", "3713", "3714"), c === 0x7b)) ? stryMutAct_9fa48("3715") ? "" : (stryCov_9fa48("3715"), "object") : (stryMutAct_9fa48("3718") ? c !== 0x5b : stryMutAct_9fa48("3717") ? false : stryMutAct_9fa48("3716") ? true : (stryCov_9fa48("3716", "3717", "3718"), c === 0x5b)) ? stryMutAct_9fa48("3719") ? "" : (stryCov_9fa48("3719"), "array") : stryMutAct_9fa48("3720") ? "" : (stryCov_9fa48("3720"), "scalar");
        }
      } else if (stryMutAct_9fa48("3723") ? level === 1 || this.stack[0] === OBJ : stryMutAct_9fa48("3722") ? false : stryMutAct_9fa48("3721") ? true : (stryCov_9fa48("3721", "3722", "3723"), (stryMutAct_9fa48("3725") ? level !== 1 : stryMutAct_9fa48("3724") ? true : (stryCov_9fa48("3724", "3725"), level === 1)) && (stryMutAct_9fa48("3727") ? this.stack[0] !== OBJ : stryMutAct_9fa48("3726") ? true : (stryCov_9fa48("3726", "3727"), this.stack[0] === OBJ)))) {
        if (stryMutAct_9fa48("3728")) {
          {}
        } else {
          stryCov_9fa48("3728");
          stryMutAct_9fa48("3729") ? this.memberIndex-- : (stryCov_9fa48("3729"), this.memberIndex++);
          this.members.push(stryMutAct_9fa48("3730") ? {} : (stryCov_9fa48("3730"), {
            key: this.pendingKey,
            isArray: stryMutAct_9fa48("3733") ? c !== 0x5b : stryMutAct_9fa48("3732") ? false : stryMutAct_9fa48("3731") ? true : (stryCov_9fa48("3731", "3732", "3733"), c === 0x5b),
            allObjects: stryMutAct_9fa48("3734") ? false : (stryCov_9fa48("3734"), true)
          }));
        }
      } else if (stryMutAct_9fa48("3737") ? level === 2 && this.stack[0] === OBJ || this.stack[1] === ARR : stryMutAct_9fa48("3736") ? false : stryMutAct_9fa48("3735") ? true : (stryCov_9fa48("3735", "3736", "3737"), (stryMutAct_9fa48("3739") ? level === 2 || this.stack[0] === OBJ : stryMutAct_9fa48("3738") ? true : (stryCov_9fa48("3738", "3739"), (stryMutAct_9fa48("3741") ? level !== 2 : stryMutAct_9fa48("3740") ? true : (stryCov_9fa48("3740", "3741"), level === 2)) && (stryMutAct_9fa48("3743") ? this.stack[0] !== OBJ : stryMutAct_9fa48("3742") ? true : (stryCov_9fa48("3742", "3743"), this.stack[0] === OBJ)))) && (stryMutAct_9fa48("3745") ? this.stack[1] !== ARR : stryMutAct_9fa48("3744") ? true : (stryCov_9fa48("3744", "3745"), this.stack[1] === ARR)))) {
        if (stryMutAct_9fa48("3746")) {
          {}
        } else {
          stryCov_9fa48("3746");
          const member = this.members[this.memberIndex];
          if (stryMutAct_9fa48("3749") ? member || c !== 0x7b : stryMutAct_9fa48("3748") ? false : stryMutAct_9fa48("3747") ? true : (stryCov_9fa48("3747", "3748", "3749"), member && (stryMutAct_9fa48("3751") ? c === 0x7b : stryMutAct_9fa48("3750") ? true : (stryCov_9fa48("3750", "3751"), c !== 0x7b)))) member.allObjects = stryMutAct_9fa48("3752") ? true : (stryCov_9fa48("3752"), false);
        }
      }
      if (stryMutAct_9fa48("3755") ? this.captureLevel > 0 || this.atCaptureLevel() : stryMutAct_9fa48("3754") ? false : stryMutAct_9fa48("3753") ? true : (stryCov_9fa48("3753", "3754", "3755"), (stryMutAct_9fa48("3758") ? this.captureLevel <= 0 : stryMutAct_9fa48("3757") ? this.captureLevel >= 0 : stryMutAct_9fa48("3756") ? true : (stryCov_9fa48("3756", "3757", "3758"), this.captureLevel > 0)) && this.atCaptureLevel())) {
        if (stryMutAct_9fa48("3759")) {
          {}
        } else {
          stryCov_9fa48("3759");
          this.capturing = stryMutAct_9fa48("3760") ? false : (stryCov_9fa48("3760"), true);
          this.captureStart = index;
          this.capturePieces = stryMutAct_9fa48("3761") ? ["Stryker was here"] : (stryCov_9fa48("3761"), []);
        }
      }
    }
  }

  /** A value ended; `end` is the index just after its last character in the current chunk. */
  private valueEnds(chunk: string, end: number): void {
    if (stryMutAct_9fa48("3762")) {
      {}
    } else {
      stryCov_9fa48("3762");
      if (stryMutAct_9fa48("3765") ? this.stack.length !== 0 : stryMutAct_9fa48("3764") ? false : stryMutAct_9fa48("3763") ? true : (stryCov_9fa48("3763", "3764", "3765"), this.stack.length === 0)) this.done = stryMutAct_9fa48("3766") ? false : (stryCov_9fa48("3766"), true);
      this.expect = AFTER;
      if (stryMutAct_9fa48("3769") ? this.capturing || this.atCaptureLevel() : stryMutAct_9fa48("3768") ? false : stryMutAct_9fa48("3767") ? true : (stryCov_9fa48("3767", "3768", "3769"), this.capturing && this.atCaptureLevel())) {
        if (stryMutAct_9fa48("3770")) {
          {}
        } else {
          stryCov_9fa48("3770");
          this.capturing = stryMutAct_9fa48("3771") ? true : (stryCov_9fa48("3771"), false);
          this.capturePieces.push(stryMutAct_9fa48("3772") ? chunk : (stryCov_9fa48("3772"), chunk.slice(this.captureStart, end)));
          const text = this.capturePieces.join(stryMutAct_9fa48("3773") ? "Stryker was here!" : (stryCov_9fa48("3773"), ""));
          this.capturePieces = stryMutAct_9fa48("3774") ? ["Stryker was here"] : (stryCov_9fa48("3774"), []);
          stryMutAct_9fa48("3775") ? this.options.capture.onElement(text) : (stryCov_9fa48("3775"), this.options.capture?.onElement(text));
        }
      }
    }
  }
  feed(chunk: string): void {
    if (stryMutAct_9fa48("3776")) {
      {}
    } else {
      stryCov_9fa48("3776");
      const length = chunk.length;
      for (let i = 0; stryMutAct_9fa48("3779") ? i >= length : stryMutAct_9fa48("3778") ? i <= length : stryMutAct_9fa48("3777") ? false : (stryCov_9fa48("3777", "3778", "3779"), i < length); stryMutAct_9fa48("3780") ? i-- : (stryCov_9fa48("3780"), i++)) {
        if (stryMutAct_9fa48("3781")) {
          {}
        } else {
          stryCov_9fa48("3781");
          const c = chunk.charCodeAt(i);
          if (stryMutAct_9fa48("3783") ? false : stryMutAct_9fa48("3782") ? true : (stryCov_9fa48("3782", "3783"), this.inString)) {
            if (stryMutAct_9fa48("3784")) {
              {}
            } else {
              stryCov_9fa48("3784");
              if (stryMutAct_9fa48("3786") ? false : stryMutAct_9fa48("3785") ? true : (stryCov_9fa48("3785", "3786"), this.escaped)) this.escaped = stryMutAct_9fa48("3787") ? true : (stryCov_9fa48("3787"), false);else if (stryMutAct_9fa48("3790") ? c !== 0x5c : stryMutAct_9fa48("3789") ? false : stryMutAct_9fa48("3788") ? true : (stryCov_9fa48("3788", "3789", "3790"), c === 0x5c)) this.escaped = stryMutAct_9fa48("3791") ? false : (stryCov_9fa48("3791"), true);else if (stryMutAct_9fa48("3794") ? c !== 0x22 : stryMutAct_9fa48("3793") ? false : stryMutAct_9fa48("3792") ? true : (stryCov_9fa48("3792", "3793", "3794"), c === 0x22)) {
                if (stryMutAct_9fa48("3795")) {
                  {}
                } else {
                  stryCov_9fa48("3795");
                  this.inString = stryMutAct_9fa48("3796") ? true : (stryCov_9fa48("3796"), false);
                  if (stryMutAct_9fa48("3798") ? false : stryMutAct_9fa48("3797") ? true : (stryCov_9fa48("3797", "3798"), this.stringIsKey)) {
                    if (stryMutAct_9fa48("3799")) {
                      {}
                    } else {
                      stryCov_9fa48("3799");
                      if (stryMutAct_9fa48("3803") ? this.keyStart < 0 : stryMutAct_9fa48("3802") ? this.keyStart > 0 : stryMutAct_9fa48("3801") ? false : stryMutAct_9fa48("3800") ? true : (stryCov_9fa48("3800", "3801", "3802", "3803"), this.keyStart >= 0)) {
                        if (stryMutAct_9fa48("3804")) {
                          {}
                        } else {
                          stryCov_9fa48("3804");
                          this.keyPieces.push(stryMutAct_9fa48("3805") ? chunk : (stryCov_9fa48("3805"), chunk.slice(this.keyStart, i)));
                          this.pendingKey = decodeKey(this.keyPieces.join(stryMutAct_9fa48("3806") ? "Stryker was here!" : (stryCov_9fa48("3806"), "")));
                          this.keyPieces = stryMutAct_9fa48("3807") ? ["Stryker was here"] : (stryCov_9fa48("3807"), []);
                          this.keyStart = stryMutAct_9fa48("3808") ? +1 : (stryCov_9fa48("3808"), -1);
                        }
                      }
                      this.expect = COLON;
                    }
                  } else {
                    if (stryMutAct_9fa48("3809")) {
                      {}
                    } else {
                      stryCov_9fa48("3809");
                      this.valueEnds(chunk, stryMutAct_9fa48("3810") ? i - 1 : (stryCov_9fa48("3810"), i + 1));
                    }
                  }
                }
              } else if (stryMutAct_9fa48("3814") ? c >= 0x20 : stryMutAct_9fa48("3813") ? c <= 0x20 : stryMutAct_9fa48("3812") ? false : stryMutAct_9fa48("3811") ? true : (stryCov_9fa48("3811", "3812", "3813", "3814"), c < 0x20)) {
                if (stryMutAct_9fa48("3815")) {
                  {}
                } else {
                  stryCov_9fa48("3815");
                  this.fail(stryMutAct_9fa48("3816") ? "" : (stryCov_9fa48("3816"), "control character inside a string"), i);
                }
              }
              continue;
            }
          }
          if (stryMutAct_9fa48("3818") ? false : stryMutAct_9fa48("3817") ? true : (stryCov_9fa48("3817", "3818"), this.inScalar)) {
            if (stryMutAct_9fa48("3819")) {
              {}
            } else {
              stryCov_9fa48("3819");
              if (stryMutAct_9fa48("3821") ? false : stryMutAct_9fa48("3820") ? true : (stryCov_9fa48("3820", "3821"), isScalarChar(c))) continue;
              this.inScalar = stryMutAct_9fa48("3822") ? true : (stryCov_9fa48("3822"), false);
              this.valueEnds(chunk, i);
              // fall through: this character is handled below
            }
          }
          if (stryMutAct_9fa48("3824") ? false : stryMutAct_9fa48("3823") ? true : (stryCov_9fa48("3823", "3824"), isWhitespace(c))) continue;
          if (stryMutAct_9fa48("3827") ? c === 0xfeff || this.offset + i === 0 : stryMutAct_9fa48("3826") ? false : stryMutAct_9fa48("3825") ? true : (stryCov_9fa48("3825", "3826", "3827"), (stryMutAct_9fa48("3829") ? c !== 0xfeff : stryMutAct_9fa48("3828") ? true : (stryCov_9fa48("3828", "3829"), c === 0xfeff)) && (stryMutAct_9fa48("3831") ? this.offset + i !== 0 : stryMutAct_9fa48("3830") ? true : (stryCov_9fa48("3830", "3831"), (stryMutAct_9fa48("3832") ? this.offset - i : (stryCov_9fa48("3832"), this.offset + i)) === 0)))) continue; // a byte-order mark before the document
          if (stryMutAct_9fa48("3834") ? false : stryMutAct_9fa48("3833") ? true : (stryCov_9fa48("3833", "3834"), this.done)) this.fail(stryMutAct_9fa48("3835") ? "" : (stryCov_9fa48("3835"), "unexpected text after the document"), i);
          switch (this.expect) {
            case VALUE:
            case VALUE_OR_CLOSE:
              if (stryMutAct_9fa48("3836")) {} else {
                stryCov_9fa48("3836");
                if (stryMutAct_9fa48("3839") ? c === 0x5d || this.expect === VALUE_OR_CLOSE : stryMutAct_9fa48("3838") ? false : stryMutAct_9fa48("3837") ? true : (stryCov_9fa48("3837", "3838", "3839"), (stryMutAct_9fa48("3841") ? c !== 0x5d : stryMutAct_9fa48("3840") ? true : (stryCov_9fa48("3840", "3841"), c === 0x5d)) && (stryMutAct_9fa48("3843") ? this.expect !== VALUE_OR_CLOSE : stryMutAct_9fa48("3842") ? true : (stryCov_9fa48("3842", "3843"), this.expect === VALUE_OR_CLOSE)))) {
                  if (stryMutAct_9fa48("3844")) {
                    {}
                  } else {
                    stryCov_9fa48("3844");
                    this.close(ARR, chunk, i);
                  }
                } else if (stryMutAct_9fa48("3847") ? c !== 0x7b : stryMutAct_9fa48("3846") ? false : stryMutAct_9fa48("3845") ? true : (stryCov_9fa48("3845", "3846", "3847"), c === 0x7b)) {
                  if (stryMutAct_9fa48("3848")) {
                    {}
                  } else {
                    stryCov_9fa48("3848");
                    this.valueStarts(c, i);
                    if (stryMutAct_9fa48("3852") ? this.stack.length < MAX_DEPTH : stryMutAct_9fa48("3851") ? this.stack.length > MAX_DEPTH : stryMutAct_9fa48("3850") ? false : stryMutAct_9fa48("3849") ? true : (stryCov_9fa48("3849", "3850", "3851", "3852"), this.stack.length >= MAX_DEPTH)) this.fail(stryMutAct_9fa48("3853") ? `` : (stryCov_9fa48("3853"), `nested deeper than ${MAX_DEPTH} levels`), i);
                    this.stack.push(OBJ);
                    this.expect = KEY_OR_CLOSE;
                  }
                } else if (stryMutAct_9fa48("3856") ? c !== 0x5b : stryMutAct_9fa48("3855") ? false : stryMutAct_9fa48("3854") ? true : (stryCov_9fa48("3854", "3855", "3856"), c === 0x5b)) {
                  if (stryMutAct_9fa48("3857")) {
                    {}
                  } else {
                    stryCov_9fa48("3857");
                    this.valueStarts(c, i);
                    if (stryMutAct_9fa48("3861") ? this.stack.length < MAX_DEPTH : stryMutAct_9fa48("3860") ? this.stack.length > MAX_DEPTH : stryMutAct_9fa48("3859") ? false : stryMutAct_9fa48("3858") ? true : (stryCov_9fa48("3858", "3859", "3860", "3861"), this.stack.length >= MAX_DEPTH)) this.fail(stryMutAct_9fa48("3862") ? `` : (stryCov_9fa48("3862"), `nested deeper than ${MAX_DEPTH} levels`), i);
                    this.stack.push(ARR);
                    this.expect = VALUE_OR_CLOSE;
                  }
                } else if (stryMutAct_9fa48("3865") ? c !== 0x22 : stryMutAct_9fa48("3864") ? false : stryMutAct_9fa48("3863") ? true : (stryCov_9fa48("3863", "3864", "3865"), c === 0x22)) {
                  if (stryMutAct_9fa48("3866")) {
                    {}
                  } else {
                    stryCov_9fa48("3866");
                    this.valueStarts(c, i);
                    this.inString = stryMutAct_9fa48("3867") ? false : (stryCov_9fa48("3867"), true);
                    this.stringIsKey = stryMutAct_9fa48("3868") ? true : (stryCov_9fa48("3868"), false);
                  }
                } else if (stryMutAct_9fa48("3870") ? false : stryMutAct_9fa48("3869") ? true : (stryCov_9fa48("3869", "3870"), isScalarChar(c))) {
                  if (stryMutAct_9fa48("3871")) {
                    {}
                  } else {
                    stryCov_9fa48("3871");
                    this.valueStarts(c, i);
                    this.inScalar = stryMutAct_9fa48("3872") ? false : (stryCov_9fa48("3872"), true);
                  }
                } else {
                  if (stryMutAct_9fa48("3873")) {
                    {}
                  } else {
                    stryCov_9fa48("3873");
                    this.fail(stryMutAct_9fa48("3874") ? `` : (stryCov_9fa48("3874"), `unexpected ${JSON.stringify(chunk[i])}`), i);
                  }
                }
                break;
              }
            case KEY:
            case KEY_OR_CLOSE:
              if (stryMutAct_9fa48("3875")) {} else {
                stryCov_9fa48("3875");
                if (stryMutAct_9fa48("3878") ? c === 0x7d || this.expect === KEY_OR_CLOSE : stryMutAct_9fa48("3877") ? false : stryMutAct_9fa48("3876") ? true : (stryCov_9fa48("3876", "3877", "3878"), (stryMutAct_9fa48("3880") ? c !== 0x7d : stryMutAct_9fa48("3879") ? true : (stryCov_9fa48("3879", "3880"), c === 0x7d)) && (stryMutAct_9fa48("3882") ? this.expect !== KEY_OR_CLOSE : stryMutAct_9fa48("3881") ? true : (stryCov_9fa48("3881", "3882"), this.expect === KEY_OR_CLOSE)))) {
                  if (stryMutAct_9fa48("3883")) {
                    {}
                  } else {
                    stryCov_9fa48("3883");
                    this.close(OBJ, chunk, i);
                  }
                } else if (stryMutAct_9fa48("3886") ? c !== 0x22 : stryMutAct_9fa48("3885") ? false : stryMutAct_9fa48("3884") ? true : (stryCov_9fa48("3884", "3885", "3886"), c === 0x22)) {
                  if (stryMutAct_9fa48("3887")) {
                    {}
                  } else {
                    stryCov_9fa48("3887");
                    this.inString = stryMutAct_9fa48("3888") ? false : (stryCov_9fa48("3888"), true);
                    this.stringIsKey = stryMutAct_9fa48("3889") ? false : (stryCov_9fa48("3889"), true);
                    // Only top-level keys are kept (to tell which member holds the records).
                    this.keyStart = (stryMutAct_9fa48("3892") ? this.stack.length !== 1 : stryMutAct_9fa48("3891") ? false : stryMutAct_9fa48("3890") ? true : (stryCov_9fa48("3890", "3891", "3892"), this.stack.length === 1)) ? stryMutAct_9fa48("3893") ? i - 1 : (stryCov_9fa48("3893"), i + 1) : stryMutAct_9fa48("3894") ? +1 : (stryCov_9fa48("3894"), -1);
                    this.keyPieces = stryMutAct_9fa48("3895") ? ["Stryker was here"] : (stryCov_9fa48("3895"), []);
                  }
                } else {
                  if (stryMutAct_9fa48("3896")) {
                    {}
                  } else {
                    stryCov_9fa48("3896");
                    this.fail(stryMutAct_9fa48("3897") ? `` : (stryCov_9fa48("3897"), `expected a key, got ${JSON.stringify(chunk[i])}`), i);
                  }
                }
                break;
              }
            case COLON:
              if (stryMutAct_9fa48("3898")) {} else {
                stryCov_9fa48("3898");
                if (stryMutAct_9fa48("3901") ? c === 0x3a : stryMutAct_9fa48("3900") ? false : stryMutAct_9fa48("3899") ? true : (stryCov_9fa48("3899", "3900", "3901"), c !== 0x3a)) this.fail(stryMutAct_9fa48("3902") ? `` : (stryCov_9fa48("3902"), `expected ":", got ${JSON.stringify(chunk[i])}`), i);
                this.expect = VALUE;
                break;
              }
            case AFTER:
              if (stryMutAct_9fa48("3903")) {} else {
                stryCov_9fa48("3903");
                {
                  if (stryMutAct_9fa48("3904")) {
                    {}
                  } else {
                    stryCov_9fa48("3904");
                    const top = this.stack[stryMutAct_9fa48("3905") ? this.stack.length + 1 : (stryCov_9fa48("3905"), this.stack.length - 1)];
                    if (stryMutAct_9fa48("3908") ? c === 0x2c || top !== undefined : stryMutAct_9fa48("3907") ? false : stryMutAct_9fa48("3906") ? true : (stryCov_9fa48("3906", "3907", "3908"), (stryMutAct_9fa48("3910") ? c !== 0x2c : stryMutAct_9fa48("3909") ? true : (stryCov_9fa48("3909", "3910"), c === 0x2c)) && (stryMutAct_9fa48("3912") ? top === undefined : stryMutAct_9fa48("3911") ? true : (stryCov_9fa48("3911", "3912"), top !== undefined)))) {
                      if (stryMutAct_9fa48("3913")) {
                        {}
                      } else {
                        stryCov_9fa48("3913");
                        this.expect = (stryMutAct_9fa48("3916") ? top !== OBJ : stryMutAct_9fa48("3915") ? false : stryMutAct_9fa48("3914") ? true : (stryCov_9fa48("3914", "3915", "3916"), top === OBJ)) ? KEY : VALUE;
                      }
                    } else if (stryMutAct_9fa48("3919") ? c === 0x7d && top === OBJ && c === 0x5d && top === ARR : stryMutAct_9fa48("3918") ? false : stryMutAct_9fa48("3917") ? true : (stryCov_9fa48("3917", "3918", "3919"), (stryMutAct_9fa48("3921") ? c === 0x7d || top === OBJ : stryMutAct_9fa48("3920") ? false : (stryCov_9fa48("3920", "3921"), (stryMutAct_9fa48("3923") ? c !== 0x7d : stryMutAct_9fa48("3922") ? true : (stryCov_9fa48("3922", "3923"), c === 0x7d)) && (stryMutAct_9fa48("3925") ? top !== OBJ : stryMutAct_9fa48("3924") ? true : (stryCov_9fa48("3924", "3925"), top === OBJ)))) || (stryMutAct_9fa48("3927") ? c === 0x5d || top === ARR : stryMutAct_9fa48("3926") ? false : (stryCov_9fa48("3926", "3927"), (stryMutAct_9fa48("3929") ? c !== 0x5d : stryMutAct_9fa48("3928") ? true : (stryCov_9fa48("3928", "3929"), c === 0x5d)) && (stryMutAct_9fa48("3931") ? top !== ARR : stryMutAct_9fa48("3930") ? true : (stryCov_9fa48("3930", "3931"), top === ARR)))))) {
                      if (stryMutAct_9fa48("3932")) {
                        {}
                      } else {
                        stryCov_9fa48("3932");
                        this.close(top, chunk, i);
                      }
                    } else {
                      if (stryMutAct_9fa48("3933")) {
                        {}
                      } else {
                        stryCov_9fa48("3933");
                        this.fail(stryMutAct_9fa48("3934") ? `` : (stryCov_9fa48("3934"), `unexpected ${JSON.stringify(chunk[i])}`), i);
                      }
                    }
                    break;
                  }
                }
              }
          }
        }
      }
      // Carry partial captures over to the next chunk.
      if (stryMutAct_9fa48("3936") ? false : stryMutAct_9fa48("3935") ? true : (stryCov_9fa48("3935", "3936"), this.capturing)) {
        if (stryMutAct_9fa48("3937")) {
          {}
        } else {
          stryCov_9fa48("3937");
          this.capturePieces.push(stryMutAct_9fa48("3938") ? chunk : (stryCov_9fa48("3938"), chunk.slice(this.captureStart)));
          this.captureStart = 0;
        }
      }
      if (stryMutAct_9fa48("3941") ? this.inString && this.stringIsKey || this.keyStart >= 0 : stryMutAct_9fa48("3940") ? false : stryMutAct_9fa48("3939") ? true : (stryCov_9fa48("3939", "3940", "3941"), (stryMutAct_9fa48("3943") ? this.inString || this.stringIsKey : stryMutAct_9fa48("3942") ? true : (stryCov_9fa48("3942", "3943"), this.inString && this.stringIsKey)) && (stryMutAct_9fa48("3946") ? this.keyStart < 0 : stryMutAct_9fa48("3945") ? this.keyStart > 0 : stryMutAct_9fa48("3944") ? true : (stryCov_9fa48("3944", "3945", "3946"), this.keyStart >= 0)))) {
        if (stryMutAct_9fa48("3947")) {
          {}
        } else {
          stryCov_9fa48("3947");
          this.keyPieces.push(stryMutAct_9fa48("3948") ? chunk : (stryCov_9fa48("3948"), chunk.slice(this.keyStart)));
          this.keyStart = 0;
        }
      }
      stryMutAct_9fa48("3949") ? this.offset -= length : (stryCov_9fa48("3949"), this.offset += length);
    }
  }
  private close(kind: number, chunk: string, index: number): void {
    if (stryMutAct_9fa48("3950")) {
      {}
    } else {
      stryCov_9fa48("3950");
      const top = this.stack.pop();
      if (stryMutAct_9fa48("3953") ? top === kind : stryMutAct_9fa48("3952") ? false : stryMutAct_9fa48("3951") ? true : (stryCov_9fa48("3951", "3952", "3953"), top !== kind)) this.fail(stryMutAct_9fa48("3954") ? "" : (stryCov_9fa48("3954"), "mismatched bracket"), index);
      this.valueEnds(chunk, stryMutAct_9fa48("3955") ? index - 1 : (stryCov_9fa48("3955"), index + 1));
    }
  }

  /** Ends the text: checks that the document is complete and says where the records are. */
  end(): ResponseShape {
    if (stryMutAct_9fa48("3956")) {
      {}
    } else {
      stryCov_9fa48("3956");
      if (stryMutAct_9fa48("3958") ? false : stryMutAct_9fa48("3957") ? true : (stryCov_9fa48("3957", "3958"), this.inScalar)) {
        if (stryMutAct_9fa48("3959")) {
          {}
        } else {
          stryCov_9fa48("3959");
          this.inScalar = stryMutAct_9fa48("3960") ? true : (stryCov_9fa48("3960"), false);
          this.valueEnds(stryMutAct_9fa48("3961") ? "Stryker was here!" : (stryCov_9fa48("3961"), ""), 0);
        }
      }
      if (stryMutAct_9fa48("3964") ? (this.inString || this.stack.length > 0) && this.topKind !== "none" && !this.done : stryMutAct_9fa48("3963") ? false : stryMutAct_9fa48("3962") ? true : (stryCov_9fa48("3962", "3963", "3964"), (stryMutAct_9fa48("3966") ? this.inString && this.stack.length > 0 : stryMutAct_9fa48("3965") ? false : (stryCov_9fa48("3965", "3966"), this.inString || (stryMutAct_9fa48("3969") ? this.stack.length <= 0 : stryMutAct_9fa48("3968") ? this.stack.length >= 0 : stryMutAct_9fa48("3967") ? false : (stryCov_9fa48("3967", "3968", "3969"), this.stack.length > 0)))) || (stryMutAct_9fa48("3971") ? this.topKind !== "none" || !this.done : stryMutAct_9fa48("3970") ? false : (stryCov_9fa48("3970", "3971"), (stryMutAct_9fa48("3973") ? this.topKind === "none" : stryMutAct_9fa48("3972") ? true : (stryCov_9fa48("3972", "3973"), this.topKind !== (stryMutAct_9fa48("3974") ? "" : (stryCov_9fa48("3974"), "none")))) && (stryMutAct_9fa48("3975") ? this.done : (stryCov_9fa48("3975"), !this.done)))))) {
        if (stryMutAct_9fa48("3976")) {
          {}
        } else {
          stryCov_9fa48("3976");
          throw new MalformedJsonError(stryMutAct_9fa48("3977") ? `` : (stryCov_9fa48("3977"), `the document ends too early (after ${this.offset} characters)`));
        }
      }
      if (stryMutAct_9fa48("3980") ? this.topKind !== "none" : stryMutAct_9fa48("3979") ? false : stryMutAct_9fa48("3978") ? true : (stryCov_9fa48("3978", "3979", "3980"), this.topKind === (stryMutAct_9fa48("3981") ? "" : (stryCov_9fa48("3981"), "none")))) return stryMutAct_9fa48("3982") ? {} : (stryCov_9fa48("3982"), {
        kind: stryMutAct_9fa48("3983") ? "" : (stryCov_9fa48("3983"), "empty")
      });
      if (stryMutAct_9fa48("3986") ? this.topKind !== "array" : stryMutAct_9fa48("3985") ? false : stryMutAct_9fa48("3984") ? true : (stryCov_9fa48("3984", "3985", "3986"), this.topKind === (stryMutAct_9fa48("3987") ? "" : (stryCov_9fa48("3987"), "array")))) return stryMutAct_9fa48("3988") ? {} : (stryCov_9fa48("3988"), {
        kind: stryMutAct_9fa48("3989") ? "" : (stryCov_9fa48("3989"), "array")
      });
      if (stryMutAct_9fa48("3992") ? this.topKind !== "object" : stryMutAct_9fa48("3991") ? false : stryMutAct_9fa48("3990") ? true : (stryCov_9fa48("3990", "3991", "3992"), this.topKind === (stryMutAct_9fa48("3993") ? "" : (stryCov_9fa48("3993"), "object")))) {
        if (stryMutAct_9fa48("3994")) {
          {}
        } else {
          stryCov_9fa48("3994");
          // As JSON.parse does, a repeated key keeps its last value.
          const last = new Map<string, number>();
          this.members.forEach(stryMutAct_9fa48("3995") ? () => undefined : (stryCov_9fa48("3995"), (member, index) => last.set(member.key, index)));
          const lists = stryMutAct_9fa48("3996") ? [...last.values()] : (stryCov_9fa48("3996"), (stryMutAct_9fa48("3997") ? [] : (stryCov_9fa48("3997"), [...last.values()])).filter(index => {
            if (stryMutAct_9fa48("3998")) {
              {}
            } else {
              stryCov_9fa48("3998");
              const member = this.members[index];
              return stryMutAct_9fa48("4001") ? member !== undefined && member.isArray || member.allObjects : stryMutAct_9fa48("4000") ? false : stryMutAct_9fa48("3999") ? true : (stryCov_9fa48("3999", "4000", "4001"), (stryMutAct_9fa48("4003") ? member !== undefined || member.isArray : stryMutAct_9fa48("4002") ? true : (stryCov_9fa48("4002", "4003"), (stryMutAct_9fa48("4005") ? member === undefined : stryMutAct_9fa48("4004") ? true : (stryCov_9fa48("4004", "4005"), member !== undefined)) && member.isArray)) && member.allObjects);
            }
          }));
          if (stryMutAct_9fa48("4008") ? lists.length === 1 || lists[0] !== undefined : stryMutAct_9fa48("4007") ? false : stryMutAct_9fa48("4006") ? true : (stryCov_9fa48("4006", "4007", "4008"), (stryMutAct_9fa48("4010") ? lists.length !== 1 : stryMutAct_9fa48("4009") ? true : (stryCov_9fa48("4009", "4010"), lists.length === 1)) && (stryMutAct_9fa48("4012") ? lists[0] === undefined : stryMutAct_9fa48("4011") ? true : (stryCov_9fa48("4011", "4012"), lists[0] !== undefined)))) return stryMutAct_9fa48("4013") ? {} : (stryCov_9fa48("4013"), {
            kind: stryMutAct_9fa48("4014") ? "" : (stryCov_9fa48("4014"), "object-with-list"),
            member: lists[0]
          });
        }
      }
      return stryMutAct_9fa48("4015") ? {} : (stryCov_9fa48("4015"), {
        kind: stryMutAct_9fa48("4016") ? "" : (stryCov_9fa48("4016"), "whole")
      });
    }
  }
}
function decodeKey(raw: string): string {
  if (stryMutAct_9fa48("4017")) {
    {}
  } else {
    stryCov_9fa48("4017");
    try {
      if (stryMutAct_9fa48("4018")) {
        {}
      } else {
        stryCov_9fa48("4018");
        return JSON.parse(`"${raw}"`) as string;
      }
    } catch {
      if (stryMutAct_9fa48("4019")) {
        {}
      } else {
        stryCov_9fa48("4019");
        throw new MalformedJsonError(stryMutAct_9fa48("4020") ? `` : (stryCov_9fa48("4020"), `malformed key ${JSON.stringify(stryMutAct_9fa48("4021") ? raw : (stryCov_9fa48("4021"), raw.slice(0, 40)))}`));
      }
    }
  }
}

/** One record from an element of the record list, as extractRecords makes it. */
export function elementRecord(text: string): JsonRecord {
  if (stryMutAct_9fa48("4022")) {
    {}
  } else {
    stryCov_9fa48("4022");
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : stryMutAct_9fa48("4023") ? {} : (stryCov_9fa48("4023"), {
      value
    });
  }
}