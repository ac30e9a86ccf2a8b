//! The vector kernels of inference, each with a portable version and an AVX2 one chosen at run time: the
//! accumulator update (add and subtract weight rows), the SCReLU dot product of the linear output layer, and the
//! byte-times-int8 dot product of the deep head's small layers. Each pair gives exactly the same integers: the
//! update wraps like the vector adds, the SCReLU dot product sums in 64 bits after per-lane 32-bit sums that
//! cannot overflow for the sizes `file` accepts, and the byte products (activations at most 127) never saturate
//! the 16-bit lanes.

/// Quantisation of the first layer (weights, biases, accumulator): 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is `QB`.
pub const QB: i32 = 64;

/// `dst = src + Σ adds − Σ subs`, lane by lane (all slices as long as `dst`).
#[inline]
pub fn add_sub(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") && dst.len().is_multiple_of(16) {
            // SAFETY: AVX2 is present; every slice is at least dst.len() long (checked inside)
            unsafe { avx2::add_sub(dst, src, adds, subs) };
            return;
        }
    }
    add_sub_scalar(dst, src, adds, subs);
}

pub fn add_sub_scalar(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    for (i, d) in dst.iter_mut().enumerate() {
        let mut v = src[i];
        for a in adds {
            v = v.wrapping_add(a[i]);
        }
        for s in subs {
            v = v.wrapping_sub(s[i]);
        }
        *d = v;
    }
}

/// `Σ clamp(acc, 0, QA)² · w`, computed as `v · (v · w)` with `v · w` in 16 bits (the output weights are at most
/// 128 in magnitude, so it fits).
#[inline]
pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") && acc.len().is_multiple_of(16) {
            // SAFETY: AVX2 is present; both slices have the same length (checked inside)
            return unsafe { avx2::screlu_dot(acc, w) };
        }
    }
    screlu_dot_scalar(acc, w)
}

pub fn screlu_dot_scalar(acc: &[i16], w: &[i16]) -> i64 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let v = a.clamp(0, QA as i16);
            i64::from(v) * i64::from(v.wrapping_mul(w))
        })
        .sum()
}

/// The deep head's input: each accumulator value as `clamp(a, 0, QA)² / 512`, a byte of at most 127 (the float
/// net's `clamp(a, 0, 1)²` times about `QX`).
#[inline]
pub fn screlu_bytes(acc: &[i16], out: &mut [u8], scalar: bool) {
    #[cfg(target_arch = "x86_64")]
    {
        if !scalar && std::is_x86_feature_detected!("avx2") && acc.len().is_multiple_of(32) {
            // SAFETY: AVX2 is present; `out` is as long as `acc` (checked inside)
            unsafe { avx2::screlu_bytes(acc, out) };
            return;
        }
    }
    for (o, &a) in out.iter_mut().zip(acc) {
        let v = a.clamp(0, QA as i16) as u32;
        *o = ((v * v) >> 9) as u8;
    }
}

/// One small layer of the deep head: `out[i] = clamp((b[i] + Σ x · w[i]) / QW, 0, QX)`, `w` holding a row of
/// `x.len()` weights per output. `scalar` forces the portable kernel (to check the vector one against).
#[inline]
pub fn affine_crelu(x: &[u8], w: &[i8], b: &[i32], out: &mut [u8], scalar: bool) {
    let n = x.len();
    #[cfg(target_arch = "x86_64")]
    {
        if !scalar
            && std::is_x86_feature_detected!("avx2")
            && n.is_multiple_of(32)
            && out.len().is_multiple_of(4)
        {
            // SAFETY: AVX2 is present; `w` holds a row of `n` per output, `b` a bias per output (checked inside)
            unsafe { avx2::affine_crelu(x, w, b, out) };
            return;
        }
    }
    for (i, o) in out.iter_mut().enumerate() {
        let row = &w[i * n..(i + 1) * n];
        let sum = b[i]
            + if scalar {
                dot_bytes_scalar(x, row)
            } else {
                dot_bytes(x, row)
            };
        // an arithmetic shift: the floor of the division, as the vector code would do it
        *o = (sum >> 6).clamp(0, 127) as u8;
    }
}

/// `affine_crelu` with `DEEP_L1` (32) outputs for an input that is mostly zeros (the SCReLU of an accumulator):
/// only the groups of four inputs with a non-zero byte are multiplied. `by_group` holds, per group of four
/// inputs, the 32 outputs' four weights; `rows` the same weights row by row, for the portable kernel.
#[inline]
pub fn affine_crelu_sparse(x: &[u8], by_group: &[i8], rows: &[i8], b: &[i32], out: &mut [u8; 32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") && x.len().is_multiple_of(32) {
            // SAFETY: AVX2 is present; `by_group` holds 32 weights per input, `b` 32 biases (checked inside)
            unsafe { avx2::affine_crelu_sparse(x, by_group, b, out) };
            return;
        }
    }
    affine_crelu(x, rows, b, out, true);
}

/// `Σ x · w` for activations of at most 127.
#[inline]
pub fn dot_bytes(x: &[u8], w: &[i8]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") && x.len().is_multiple_of(32) {
            // SAFETY: AVX2 is present; both slices have the same length (checked inside)
            return unsafe { avx2::dot_bytes(x, w) };
        }
    }
    dot_bytes_scalar(x, w)
}

pub fn dot_bytes_scalar(x: &[u8], w: &[i8]) -> i32 {
    x.iter()
        .zip(w)
        .map(|(&x, &w)| i32::from(x) * i32::from(w))
        .sum()
}

/// Whether the AVX2 kernels run on this machine.
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::QA;
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub unsafe fn add_sub(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let n = dst.len();
        assert!(src.len() >= n && adds.iter().chain(subs).all(|r| r.len() >= n));
        let load = |s: &[i16], i: usize| _mm256_loadu_si256(s.as_ptr().add(i) as *const __m256i);
        let mut i = 0;
        while i < n {
            let mut v = load(src, i);
            for a in adds {
                v = _mm256_add_epi16(v, load(a, i));
            }
            for s in subs {
                v = _mm256_sub_epi16(v, load(s, i));
            }
            _mm256_storeu_si256(dst.as_mut_ptr().add(i) as *mut __m256i, v);
            i += 16;
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
        let n = acc.len();
        assert!(w.len() == n);
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < n {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            let ww = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
            let vw = _mm256_mullo_epi16(v, ww);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
            i += 16;
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
        lanes.iter().map(|&x| i64::from(x)).sum()
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_bytes(acc: &[i16], out: &mut [u8]) {
        let n = acc.len();
        assert!(out.len() == n);
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let squared = |i: usize| {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            // v² < 2^16: the low half of the product, read unsigned, is all of it
            _mm256_srli_epi16(_mm256_mullo_epi16(v, v), 9)
        };
        let mut i = 0;
        while i < n {
            let packed = _mm256_packus_epi16(squared(i), squared(i + 16));
            // packing works per 128-bit lane: put the four 64-bit quarters back in order
            let ordered = _mm256_permute4x64_epi64(packed, 0b11_01_10_00);
            _mm256_storeu_si256(out.as_mut_ptr().add(i) as *mut __m256i, ordered);
            i += 32;
        }
    }

    /// Four output rows at a time, so that each load of the input serves four rows.
    #[target_feature(enable = "avx2")]
    pub unsafe fn affine_crelu(x: &[u8], w: &[i8], b: &[i32], out: &mut [u8]) {
        let n = x.len();
        assert!(w.len() >= out.len() * n && b.len() >= out.len());
        let ones = _mm256_set1_epi16(1);
        let mut o = 0;
        while o < out.len() {
            let mut s = [_mm256_setzero_si256(); 4];
            let mut i = 0;
            while i < n {
                let xv = _mm256_loadu_si256(x.as_ptr().add(i) as *const __m256i);
                for (k, s) in s.iter_mut().enumerate() {
                    let at = (o + k) * n + i;
                    let wv = _mm256_loadu_si256(w.as_ptr().add(at) as *const __m256i);
                    let p = _mm256_maddubs_epi16(xv, wv);
                    *s = _mm256_add_epi32(*s, _mm256_madd_epi16(p, ones));
                }
                i += 32;
            }
            let s01 = _mm256_hadd_epi32(s[0], s[1]);
            let s23 = _mm256_hadd_epi32(s[2], s[3]);
            let s0123 = _mm256_hadd_epi32(s01, s23);
            let sums = _mm_add_epi32(
                _mm256_castsi256_si128(s0123),
                _mm256_extracti128_si256(s0123, 1),
            );
            let mut lanes = [0i32; 4];
            _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, sums);
            for k in 0..4 {
                out[o + k] = ((b[o + k] + lanes[k]) >> 6).clamp(0, 127) as u8;
            }
            o += 4;
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn affine_crelu_sparse(x: &[u8], by_group: &[i8], b: &[i32], out: &mut [u8; 32]) {
        let n = x.len();
        assert!(by_group.len() >= n * 32 && b.len() >= 32);
        let ones = _mm256_set1_epi16(1);
        let zero = _mm256_setzero_si256();
        // eight sums per vector: outputs 0-7, 8-15, 16-23, 24-31
        let mut s = [_mm256_setzero_si256(); 4];
        let mut i = 0;
        while i < n {
            let xv = _mm256_loadu_si256(x.as_ptr().add(i) as *const __m256i);
            // one bit per group of four bytes with a non-zero byte
            let nonzero =
                !_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(xv, zero))) & 0xff;
            let mut bits = nonzero as u32;
            while bits != 0 {
                let g = i / 4 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let four = (x.as_ptr().add(g * 4) as *const i32).read_unaligned();
                let xb = _mm256_set1_epi32(four);
                let w = by_group.as_ptr().add(g * 128);
                for (k, s) in s.iter_mut().enumerate() {
                    let wv = _mm256_loadu_si256(w.add(32 * k) as *const __m256i);
                    *s =
                        _mm256_add_epi32(*s, _mm256_madd_epi16(_mm256_maddubs_epi16(xb, wv), ones));
                }
            }
            i += 32;
        }
        let mut sums = [0i32; 32];
        for (k, s) in s.iter().enumerate() {
            _mm256_storeu_si256(sums.as_mut_ptr().add(8 * k) as *mut __m256i, *s);
        }
        for (o, out) in out.iter_mut().enumerate() {
            *out = ((b[o] + sums[o]) >> 6).clamp(0, 127) as u8;
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn dot_bytes(x: &[u8], w: &[i8]) -> i32 {
        let n = x.len();
        assert!(w.len() == n);
        let ones = _mm256_set1_epi16(1);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < n {
            let xv = _mm256_loadu_si256(x.as_ptr().add(i) as *const __m256i);
            let wv = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
            // pairs of byte products in 16 bits: at most 2 · 127 · 128, no saturation
            let p = _mm256_maddubs_epi16(xv, wv);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(p, ones));
            i += 32;
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
        lanes.iter().sum()
    }
}
