def window(high_water, draught, clearance=0.5):
    """Hours either side of high water a vessel can enter."""
    margin = high_water - draught - clearance
    return max(0.0, margin) * 2.0
