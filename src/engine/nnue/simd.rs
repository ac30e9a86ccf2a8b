//! The two vector kernels of inference, each with a portable version and an AVX2 one chosen at run time: the
//! accumulator update (add and subtract weight rows) and the SCReLU dot product of the output layer. Both give
//! exactly the same integers: the update wraps like the vector adds, and the dot product sums in 64 bits after
//! per-lane 32-bit sums that cannot overflow for the sizes `file` accepts.

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
}
