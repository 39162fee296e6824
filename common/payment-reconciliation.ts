/** The administrator's note when marking a payment difference resolved (decision 0081), in characters. */
export const RESOLUTION_NOTE_MAX = 500;
