//! Hand-written cases for the tricky parts of fu and yaku (expected values from the rules, not
//! from the code).
